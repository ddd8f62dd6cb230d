import type { Contender } from './contenders.js';
import { cpuSnapshot, groupsCpuMs, othersPercent, waitQuiet } from './cpu.js';
import type { Options, Scenario } from './options.js';
import { startedGroups } from './proc.js';
import type { Phase } from './results.js';
import { measureExchange } from './scenarios/exchange.js';
import { measureMorningPeak } from './scenarios/morning-peak.js';
import { measureRefresh } from './scenarios/refresh.js';
import { measureRosterImport, rosterFolder } from './scenarios/roster-import.js';
import { measureSignIn } from './scenarios/sign-in.js';
import { measureGet } from './scenarios/static-docs.js';
import { measureStorm } from './scenarios/storm.js';

export interface SuiteContext {
  options: Options;
  /** argon2 verifications Lanyard runs at once in all its processes together. */
  argon2Total: number;
  log: (line: string) => void;
  warn: (line: string) => void;
  /** Each measurement as it ran: which scenario on which server, when, and what the idle servers spent meanwhile. */
  phases: Phase[];
  /** When the run began (ms since the epoch): phases are timed from it. */
  began: number;
  /** The run's temporary directory (the generated roster goes there). */
  dir: string;
}

/** What one server's earlier steps left for its later ones. */
interface Carried {
  ex?: Awaited<ReturnType<typeof measureExchange>>;
}

interface Step {
  scenario: Scenario;
  /** The progress line's words. */
  what: (ctx: SuiteContext) => string;
  applies: (c: Contender, carried: Carried, ctx: SuiteContext) => boolean;
  run: (c: Contender, carried: Carried, ctx: SuiteContext) => Promise<void>;
}

const isLanyard = (c: Contender) => c.key !== 'bare';
const signInConcurrency = (ctx: SuiteContext) => Math.max(2, ctx.options.profile.signIn.concurrencyPerArgon2 * ctx.argon2Total);

/**
 * The scenarios in an order where each builds on the last: the exchange's tokens feed the refresh, its rate
 * sizes the storm's codes. Bare oidc-provider has no sign-in screens, so it stops after the documents.
 */
const STEPS: Step[] = [
  {
    scenario: 'exchange',
    what: () => 'code exchange',
    applies: (c, _, ctx) => want(ctx, 'exchange') || want(ctx, 'refresh') || (isLanyard(c) && want(ctx, 'storm')),
    async run(c, carried, ctx) {
      carried.ex = await measureExchange(c.t, ctx.options.profile.exchange);
      c.into.exchange = carried.ex.figure;
    },
  },
  {
    scenario: 'refresh',
    what: () => 'refresh',
    applies: (_, carried, ctx) => carried.ex !== undefined && want(ctx, 'refresh'),
    async run(c, carried, ctx) { c.into.refresh = await measureRefresh(c.t, carried.ex!.tokens, ctx.options.profile.refresh); },
  },
  {
    scenario: 'discovery',
    what: () => 'discovery',
    applies: (_, __, ctx) => want(ctx, 'discovery'),
    async run(c, _, ctx) { c.into.discovery = await measureGet(c.t, c.t.paths.discovery, ctx.options.profile.docs); },
  },
  {
    scenario: 'jwks',
    what: () => 'JWKS',
    applies: (_, __, ctx) => want(ctx, 'jwks'),
    async run(c, _, ctx) { c.into.jwks = await measureGet(c.t, c.t.paths.jwks, ctx.options.profile.docs); },
  },
  {
    scenario: 'sign-in',
    what: (ctx) => `full password sign-in at concurrency ${signInConcurrency(ctx)}`,
    applies: (c, _, ctx) => isLanyard(c) && want(ctx, 'sign-in'),
    async run(c, _, ctx) {
      const p = ctx.options.profile.signIn;
      c.into.signIn = await measureSignIn(c.t, { ...p, concurrency: signInConcurrency(ctx), argon2Concurrency: ctx.argon2Total });
    },
  },
  {
    scenario: 'storm',
    what: () => 'exchange latency alone and during a sign-in storm',
    applies: (c, carried, ctx) => isLanyard(c) && carried.ex !== undefined && want(ctx, 'storm'),
    async run(c, carried, ctx) {
      c.into.storm = await measureStorm(c.t, { ...ctx.options.profile.storm, exchangeRate: carried.ex!.figure.rate, spareCodes: carried.ex!.spareCodes });
    },
  },
  {
    scenario: 'morning-peak',
    what: (ctx) => `morning peak, ${ctx.options.profile.morningPeak.pupils} pupils over ${ctx.options.profile.morningPeak.seconds} s`,
    applies: (c, _, ctx) => isLanyard(c) && want(ctx, 'morning-peak'),
    async run(c, _, ctx) {
      const peak = await measureMorningPeak(c.t, ctx.options.profile.morningPeak);
      c.into.morningPeak = peak;
      if (peak.serverErrors > 0) {
        ctx.warn(`!!! ${c.t.label}: ${peak.serverErrors} pupils in the morning peak got a 5xx other than 503 with Retry-After: ${JSON.stringify(peak.errors)} !!!`);
      } else if (peak.unexpected > 0) {
        ctx.warn(`${c.t.label}: ${peak.unexpected} pupils in the morning peak failed unexpectedly: ${JSON.stringify(peak.errors)}`);
      }
    },
  },
  {
    scenario: 'roster-import',
    what: (ctx) => {
      const s = ctx.options.profile.rosterImport;
      return `roster import of ${s.users} users, ${s.classes} classes, ${s.enrollments} enrolments, then again unchanged`;
    },
    applies: (c, _, ctx) => isLanyard(c) && c.env !== undefined && want(ctx, 'roster-import'),
    async run(c, _, ctx) {
      const size = ctx.options.profile.rosterImport;
      c.into.rosterImport = await measureRosterImport(await rosterFolder(ctx.dir, size), size, c.env!);
      if (c.into.rosterImport.again.applied) ctx.warn(`${c.t.label}: importing the same roster again wrote changes`);
    },
  },
];

/** Lanyard with the audit trail off is measured where the trail's cost is to show: the exchange and the sign-in. */
const AUDIT_OFF_SCENARIOS: ReadonlySet<Scenario> = new Set(['exchange', 'sign-in']);

/** Was this scenario asked for (--only; all when empty)? */
const want = (ctx: SuiteContext, s: Scenario) => ctx.options.only.size === 0 || ctx.options.only.has(s);

/**
 * Every scenario on every server, scenario by scenario: each is measured on one server after another,
 * back to back, before the next scenario begins. A VM's speed drifts over minutes, so the ratios between
 * servers (Lanyard ÷ bare, Redis ÷ SQLite) are taken between measurements seconds apart rather than a
 * minute or two. The servers not being measured sit idle; what they spend meanwhile is recorded.
 */
export async function runSuite(contenders: Contender[], ctx: SuiteContext): Promise<void> {
  const carried = new Map<Contender, Carried>(contenders.map((c) => [c, {}]));
  const ours = () => new Set(startedGroups.map((g) => g.pid));
  const before = cpuSnapshot(ours());
  for (const step of STEPS) {
    for (const c of contenders) {
      if (!step.applies(c, carried.get(c)!, ctx) || (c.key === 'audit-off' && !AUDIT_OFF_SCENARIOS.has(step.scenario))) continue;
      ctx.log(`${c.t.label}: ${step.what(ctx)}`);
      const idle = new Set(contenders.filter((o) => o !== c && o.t.group !== undefined).map((o) => o.t.group!));
      const settledMs = await waitQuiet(idle);
      const start = Date.now();
      const [, idleMs] = await groupsCpuMs(idle.size ? idle : undefined, () => step.run(c, carried.get(c)!, ctx));
      ctx.phases.push({
        scenario: step.scenario, target: c.key,
        startSeconds: round1((start - ctx.began) / 1000), seconds: round1((Date.now() - start) / 1000), settledSeconds: round1(settledMs / 1000),
        ...(idleMs !== undefined ? { idleServersCpuMs: idleMs } : {}),
      });
    }
  }
  const argon2Ms = contenders.reduce((sum, c) => sum + (c.into.signIn?.argon2Around.measurementCpuMs ?? 0), 0);
  const others = othersPercent(before, cpuSnapshot(ours()), argon2Ms);
  for (const c of contenders) {
    c.into.othersCpuPercent = others;
    const idle = idleShare(ctx.phases.filter((p) => p.target === c.key));
    c.into.idleServersCpuPercent = idle?.percent;
    if (idle && idle.seconds >= IDLE_SERVERS_WARN.seconds && idle.percent > IDLE_SERVERS_WARN.percent) {
      ctx.warn(`the other servers, idle, used ${idle.percent} % of a core while ${c.t.label} was measured: its figures are lower for it`);
    }
  }
}

/**
 * Idle servers should spend next to nothing (a metrics scrape, a timer); above this share of a core, over
 * phases long enough for /proc's 10 ms ticks to say so, the run warns.
 */
const IDLE_SERVERS_WARN = { percent: 2, seconds: 10 };

const round1 = (n: number) => Math.round(n * 10) / 10;

/** What the idle servers spent while this one was measured, in % of one core, and over how long; undefined when not known. */
function idleShare(phases: Phase[]): { percent: number; seconds: number } | undefined {
  const known = phases.filter((p) => p.idleServersCpuMs !== undefined);
  const seconds = known.reduce((a, p) => a + p.seconds, 0);
  if (!known.length || seconds <= 0) return undefined;
  const ms = known.reduce((a, p) => a + p.idleServersCpuMs!, 0);
  return { percent: Math.round((ms / (seconds * 1000)) * 1000) / 10, seconds };
}
