import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import type { BenchSetup } from './bench-config.js';
import { freePorts } from './ports.js';
import { type Group, spawnGroup, waitReady } from './proc.js';
import { REPO } from './build.js';

export interface LanyardServer {
  origin: string;
  /** Where its Prometheus metrics are served (LANYARD_METRICS_PORT). */
  metricsUrl: string;
  group: Group;
  /** Lanyard's log (JSON lines at info), kept for the error scan after the run. */
  logFile: string;
  /** Its environment: what a `lanyard` command needs to work on the same store (the roster import). */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export interface LanyardOptions {
  setup: BenchSetup;
  /** sqlite:<file> or redis://… */
  store: string;
  dir: string;
  label: string;
  workers: number;
  /** Extra environment from --lanyard-env (e.g. a metrics setting), applied last. */
  extraEnv: Record<string, string>;
}

/**
 * Lanyard as production runs it: the built `node dist/src/cli.js serve`, JSON logs at info (to a file, as a
 * log shipper would take them, so the bench does not spend its own CPU draining them), metrics on a port of
 * their own, no Demo App, its own cookie and key-encryption keys, and LANYARD_WORKERS set to the number of
 * cores. Not NODE_ENV=production: that needs an https issuer, and the bench speaks plain HTTP on loopback.
 */
export async function startLanyard(o: LanyardOptions): Promise<LanyardServer> {
  const [port, metricsPort] = (await freePorts(2)) as [number, number];
  const origin = `http://127.0.0.1:${port}`;
  const logFile = join(o.dir, `lanyard-${o.label}.log`);
  const fd = openSync(logFile, 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LANYARD_CONFIG: o.setup.configPath,
    LANYARD_STORE: o.store,
    PORT: String(port),
    HOST: '127.0.0.1',
    LANYARD_ISSUER: origin,
    LANYARD_LOG_LEVEL: 'info',
    LANYARD_LOG_FORMAT: 'json',
    LANYARD_DEMO_APP: 'off',
    LANYARD_WORKERS: String(o.workers),
    LANYARD_COOKIE_KEYS: o.setup.cookieKeys,
    LANYARD_KEY_ENCRYPTION_KEY: o.setup.keyEncryptionKey,
    // Metrics on, on a port of their own (docs/operations.md → Metrics: what production should do).
    LANYARD_METRICS_PORT: String(metricsPort),
    ...o.extraEnv,
  };
  // The bench's own TypeScript loader is not Lanyard's: Lanyard runs its build, like production.
  if (env.NODE_OPTIONS?.includes('tsx')) delete env.NODE_OPTIONS;
  let group: Group;
  try {
    group = spawnGroup(`lanyard (${o.label})`, process.execPath, [join(REPO, 'dist/src/cli.js'), 'serve'], { env, stdio: ['ignore', fd, fd], cwd: o.dir });
  } finally {
    closeSync(fd); // the child has its own copy
  }
  const graceMs = 15_000;
  // Ready when /readyz (the store is read and written) answers 200.
  await waitReady(group, {
    what: 'Lanyard', timeoutMs: 120_000, everyMs: 100, graceMs, detail: () => `:\n${tail(logFile)}`,
    check: async () => {
      try {
        const res = await request(`${origin}/readyz`, { headersTimeout: 2000, bodyTimeout: 2000 });
        await res.body.dump();
        return res.statusCode === 200 || undefined;
      } catch { return undefined; /* not listening yet */ }
    },
  });
  return { origin, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, group, logFile, env, stop: () => group.stop(graceMs) };
}

const tail = (file: string, lines = 15): string => {
  try { return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n'); } catch { return '(no log)'; }
};
