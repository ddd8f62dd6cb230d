import { join } from 'node:path';
import { REPO } from './build.js';

/** How big each measurement is. The default run stays under 5 minutes, --quick under 1, --smoke seconds. */
export interface Profile {
  name: 'default' | 'quick' | 'smoke';
  limitSeconds: number;
  exchange: { probeCodes: number; maxCodes: number; seconds: number; concurrency: number };
  refresh: { seconds: number; concurrency: number };
  docs: { seconds: number; concurrency: number };
  /**
   * `warmUp`: sign-ins before the timed phase, enough for V8 to have optimised the sign-in's code (a server
   * runs warm; after only 4, the phase measured about 6 % more CPU per sign-in). `argon2Seconds`: how long the
   * argon2id rate is measured just before and just after the phase, the ratio's denominator.
   */
  signIn: { seconds: number; concurrencyPerArgon2: number; warmUp: number; argon2Seconds: number };
  storm: { seconds: number; exchangeConcurrency: number; signInConcurrency: number; maxCodes: number };
  /**
   * `connections`: at most this many at once, as if each device had its own (a shared few would queue the
   * pupils in the load generator instead of in the server); bounded to stay within the usual limit of open
   * files.
   */
  morningPeak: { pupils: number; seconds: number; connections: number };
  staff: number;
  /** The district `lanyard roster import` reads (bench/roster/generate.ts): the default is the target's size. */
  rosterImport: { users: number; classes: number; enrollments: number; schools: number };
}

const DEFAULT: Profile = {
  name: 'default',
  limitSeconds: 3,
  exchange: { probeCodes: 300, maxCodes: 3500, seconds: 4, concurrency: 32 },
  refresh: { seconds: 3, concurrency: 32 },
  docs: { seconds: 1.5, concurrency: 32 },
  signIn: { seconds: 4, concurrencyPerArgon2: 4, warmUp: 300, argon2Seconds: 2 },
  storm: { seconds: 3, exchangeConcurrency: 8, signInConcurrency: 32, maxCodes: 2500 },
  morningPeak: { pupils: 2000, seconds: 60, connections: 1000 },
  staff: 96,
  rosterImport: { users: 50_000, classes: 2_000, enrollments: 200_000, schools: 10 },
};

const QUICK: Profile = {
  name: 'quick',
  limitSeconds: 0.5,
  exchange: { probeCodes: 100, maxCodes: 800, seconds: 1.5, concurrency: 32 },
  refresh: { seconds: 1, concurrency: 32 },
  docs: { seconds: 0.5, concurrency: 32 },
  signIn: { seconds: 1.5, concurrencyPerArgon2: 4, warmUp: 40, argon2Seconds: 0.5 },
  storm: { seconds: 1.25, exchangeConcurrency: 8, signInConcurrency: 24, maxCodes: 600 },
  morningPeak: { pupils: 120, seconds: 5, connections: 1000 },
  staff: 96,
  rosterImport: { users: 5_000, classes: 200, enrollments: 20_000, schools: 2 },
};

/** Enough of everything to go through every code path once or twice; the figures mean nothing. */
const SMOKE: Profile = {
  name: 'smoke',
  limitSeconds: 0.2,
  exchange: { probeCodes: 4, maxCodes: 12, seconds: 0.5, concurrency: 4 },
  refresh: { seconds: 0.5, concurrency: 4 },
  docs: { seconds: 0.2, concurrency: 4 },
  signIn: { seconds: 0.5, concurrencyPerArgon2: 2, warmUp: 2, argon2Seconds: 0.2 },
  storm: { seconds: 0.4, exchangeConcurrency: 2, signInConcurrency: 4, maxCodes: 12 },
  morningPeak: { pupils: 6, seconds: 1, connections: 16 },
  staff: 16,
  rosterImport: { users: 80, classes: 4, enrollments: 120, schools: 1 },
};

export interface Options {
  profile: Profile;
  json: string;
  soak: boolean;
  /** Only the soak (no limits, no other scenarios). */
  soakOnly: boolean;
  soakMinutes: number;
  /** Which stores to run Lanyard on (both by default; Redis only when redis-server is found). */
  stores: ('sqlite' | 'redis')[];
  bare: boolean;
  /** Also Lanyard on SQLite with the audit trail off, for the exchange and the sign-in (what the trail costs). */
  auditOff: boolean;
  workers: number | undefined;
  lanyardEnv: Record<string, string>;
  keep: boolean;
  /** Only these scenarios (all when empty); the exchange also runs when refresh or the storm needs its tokens. */
  only: Set<Scenario>;
}

export const SCENARIOS = ['exchange', 'refresh', 'discovery', 'jwks', 'sign-in', 'storm', 'morning-peak', 'roster-import'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const USAGE = `npm run bench [-- OPTIONS]

Measures, in one run on this machine: its RSA-4096 signing and argon2id verify rates, bare oidc-provider,
and Lanyard on SQLite and on Redis (when redis-server is installed); prints a table and writes JSON.

  --quick              a shorter run (under a minute): shorter phases, 120 pupils over 5 s in the morning peak
  --smoke              seconds: tiny counts, to check the bench still works (CI); the figures mean nothing
  --soak               also run the soak: mixed traffic for 10 minutes, resident size sampled
  --soak-minutes N     the soak's length (implies --soak)
  --soak-only          only the soak: no machine limits, no other scenarios
  --roster-users N     users in the district the roster import reads (default 50000; --quick 5000), with
                       classes and enrolments in proportion (1 class per 25 users, 4 enrolments per user)
  --pupils N           pupils in the morning peak (default 2000; --quick 120)
  --peak-seconds N     the morning peak's arrival window (default 60; --quick 5)
  --json FILE          where to write the results (default bench/results/latest.json)
  --store sqlite|redis run Lanyard on this store only (repeatable)
  --no-bare            skip bare oidc-provider
  --no-audit-off       skip Lanyard on SQLite with the audit trail off (measured for the exchange and the
                       sign-in only, to show what writing the trail costs)
  --only A,B           only these scenarios: ${SCENARIOS.join(', ')} (e.g. to profile one)
  --workers N          LANYARD_WORKERS (default: the number of cores)
  --lanyard-env K=V    extra environment for Lanyard (repeatable), e.g. a metrics setting
  --keep               keep the temporary directory (config, databases, Lanyard's logs)
  --help               this text`;

export function parseOptions(argv: string[]): Options | 'help' {
  let profile = DEFAULT;
  let pupils: number | undefined;
  let peakSeconds: number | undefined;
  let rosterUsers: number | undefined;
  const o: Omit<Options, 'profile'> = {
    json: join(REPO, 'bench/results/latest.json'), soak: false, soakOnly: false, soakMinutes: 10, stores: [], bare: true, auditOff: true,
    workers: undefined, lanyardEnv: {}, keep: false, only: new Set(),
  };
  const number = (flag: string, value: string | undefined): number => {
    const n = Number(value);
    if (!value || !Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number`);
    return n;
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const value = () => { const v = argv[++i]; if (v === undefined) throw new Error(`${arg} needs a value`); return v; };
    switch (arg) {
      case '--help': case '-h': return 'help';
      case '--quick': profile = QUICK; break;
      case '--smoke': profile = SMOKE; break;
      case '--soak': o.soak = true; break;
      case '--soak-minutes': o.soak = true; o.soakMinutes = number(arg, value()); break;
      case '--soak-only': o.soak = true; o.soakOnly = true; break;
      case '--roster-users': rosterUsers = Math.round(number(arg, value())); break;
      case '--pupils': pupils = Math.round(number(arg, value())); break;
      case '--peak-seconds': peakSeconds = number(arg, value()); break;
      case '--json': o.json = value(); break;
      case '--store': {
        const s = value();
        if (s !== 'sqlite' && s !== 'redis') throw new Error('--store is sqlite or redis');
        o.stores.push(s);
        break;
      }
      case '--no-bare': o.bare = false; break;
      case '--no-audit-off': o.auditOff = false; break;
      case '--workers': o.workers = Math.round(number(arg, value())); break;
      case '--lanyard-env': {
        const [k, ...v] = value().split('=');
        if (!k || !v.length) throw new Error('--lanyard-env needs KEY=VALUE');
        o.lanyardEnv[k] = v.join('=');
        break;
      }
      case '--keep': o.keep = true; break;
      case '--only':
        for (const name of value().split(',')) {
          if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`--only takes ${SCENARIOS.join(', ')}`);
          o.only.add(name as Scenario);
        }
        break;
      default: throw new Error(`unknown option ${arg} (npm run bench -- --help)`);
    }
  }
  if (pupils || peakSeconds) {
    profile = { ...profile, morningPeak: { ...profile.morningPeak, pupils: pupils ?? profile.morningPeak.pupils, seconds: peakSeconds ?? profile.morningPeak.seconds } };
  }
  if (rosterUsers) {
    const classes = Math.max(1, Math.round(rosterUsers / 25));
    profile = { ...profile, rosterImport: { users: rosterUsers, classes, enrollments: rosterUsers * 4, schools: Math.max(1, Math.min(10, Math.round(classes / 200))) } };
  }
  return { ...o, profile, stores: o.stores.length ? o.stores : ['sqlite', 'redis'] };
}
