import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/package-files.js';
import { freePort, type Lanyard, startLanyard } from './lanyard.js';
import { type RedisServer, startRedis } from './redis-server.js';
import { LANYARD_ARGV } from './lanyard-command.js';
import { compileCacheEnv } from './child-env.js';

/**
 * Several Lanyard instances on ONE store, as a load-balanced deployment runs them: one SQLite file, or one
 * Redis (each group of instances under its own key prefix). They share what a deployment must share — the
 * issuer (the first instance's URL, so a browser's cookies, which ignore ports, reach every instance), the
 * key-encryption key and the cookie keys. Requests go to each instance's own port; oidc-provider builds
 * absolute URLs from the issuer, so a redirect may name the first instance: `onInstance` sends a step to
 * another one, as a load balancer would.
 */
export type Backend = 'sqlite' | 'redis';

interface Teardown { teardown(fn: () => unknown): void }

export interface Instance extends Lanyard {
  /** This instance's own origin, http://localhost:PORT (its `url` is the shared issuer). */
  origin: string;
  port: number;
}

/** One store and the settings every instance on it shares. */
export interface SharedStore {
  backend: Backend;
  storeUrl: string;
  /** The data directory of a SQLite store (startLanyard's `dir`); a scratch directory for Redis. */
  dir: string;
  /** The issuer: http://localhost:PORT of the first instance, whose port is reserved here. */
  issuer: string;
  issuerPort: number;
  /** The environment every instance gets (store, prefix, issuer, key-encryption key, cookie keys). */
  env: Record<string, string>;
  /** Starts an in-process instance on the store; `first` takes the issuer's port; `env` adds to the shared one. */
  start(t: Teardown, options?: { first?: boolean; env?: Record<string, string> }): Promise<Instance>;
}

export interface Pair {
  a: Instance;
  b: Instance;
  storeUrl: string;
  issuer: string;
  shared: SharedStore;
}

/** 43 characters of base64url: a cookie key well over the 32-character minimum. */
const cookieKey = () => randomBytes(32).toString('base64url');

/**
 * A fresh, empty store for `backend`. For Redis, pass `redis` to put several stores on one server (each gets
 * its own LANYARD_REDIS_PREFIX); without it a redis-server is started for this store.
 */
export async function sharedStore(t: Teardown, backend: Backend, options: { redis?: RedisServer } = {}): Promise<SharedStore> {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-many-'));
  const started: Instance[] = [];
  // Registered first, so it also runs when a start below fails; stop() is idempotent.
  t.teardown(async () => {
    await Promise.all(started.map((i) => i.stop()));
    rmSync(dir, { recursive: true, force: true });
  });
  const issuerPort = await freePort();
  const issuer = `http://localhost:${issuerPort}`;
  const env: Record<string, string> = {
    LANYARD_ISSUER: issuer,
    LANYARD_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LANYARD_COOKIE_KEYS: `${cookieKey()},${cookieKey()}`,
  };
  let storeUrl: string;
  if (backend === 'sqlite') {
    storeUrl = `sqlite:${join(dir, 'lanyard.db')}`;
  } else {
    const redis = options.redis ?? await startRedis(t);
    storeUrl = redis.url;
    env.LANYARD_REDIS_PREFIX = `many-${randomBytes(6).toString('hex')}`;
  }
  env.LANYARD_STORE = storeUrl;
  let issuerTaken = false;
  const start = async (t: Teardown, o: { first?: boolean; env?: Record<string, string> } = {}): Promise<Instance> => {
    if (o.first && issuerTaken) throw new Error('the issuer\'s instance is already running');
    if (o.first) issuerTaken = true;
    const port = o.first ? issuerPort : await freePort();
    const lanyard = await startLanyard(t, { dir, port, env: { ...env, ...o.env } });
    const instance: Instance = Object.assign(lanyard, { origin: `http://localhost:${port}`, port });
    started.push(instance);
    return instance;
  };
  return { backend, storeUrl, dir, issuer, issuerPort, env, start };
}

/**
 * Two instances A and B on one fresh store. A (the issuer) is started fully before B, unless `together`
 * (both at once, e.g. to race for the month's signing key on an empty store).
 */
export async function startPair(t: Teardown, backend: Backend, options: { redis?: RedisServer; together?: boolean } = {}): Promise<Pair> {
  const shared = await sharedStore(t, backend, options);
  let a: Instance;
  let b: Instance;
  if (options.together) {
    [a, b] = await Promise.all([shared.start(t, { first: true }), shared.start(t)]);
  } else {
    a = await shared.start(t, { first: true });
    b = await shared.start(t);
  }
  return { a, b, storeUrl: shared.storeUrl, issuer: shared.issuer, shared };
}

/**
 * The same URL on `instance`: a redirect built from the shared issuer (or naming any instance) re-aimed,
 * as a load balancer might send that step to any instance. URLs of other origins (the app's callback) are
 * returned unchanged.
 */
export function onInstance(url: string | URL, instance: { origin: string }, ours: string[]): URL {
  const u = new URL(url, instance.origin);
  if (!ours.includes(u.origin)) return u;
  const to = new URL(instance.origin);
  u.protocol = to.protocol;
  u.host = to.host;
  return u;
}

/** A `lanyard serve` child process on the shared store (so a test can SIGKILL a real instance). */
export interface ServeProcess {
  origin: string;
  port: number;
  child: ChildProcess;
  /** Everything it wrote so far (stdout and stderr). */
  output(): string;
}

/**
 * Runs the real `lanyard serve` (helpers/lanyard-command.ts) on the shared store with the shared settings,
 * and waits until it is ready (/readyz 200, or /healthz where there is no /readyz). Killed (SIGKILL) at
 * teardown if still running.
 */
export async function serveProcess(t: Teardown, shared: SharedStore, readyWithinMs = 30_000): Promise<ServeProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...LANYARD_ARGV, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      ...compileCacheEnv(),
      HOME: process.env.HOME ?? '',
      ...shared.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LANYARD_DEMO_APP: 'off',
      LANYARD_LOG_LEVEL: 'info',
    },
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += String(d); });
  child.stderr!.on('data', (d) => { out += String(d); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const origin = `http://localhost:${port}`;
  const deadline = Date.now() + readyWithinMs;
  let path = '/readyz';
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`lanyard serve exited early (${child.exitCode ?? child.signalCode}):\n${out}`);
    if (Date.now() > deadline) throw new Error(`lanyard serve not ready within ${readyWithinMs} ms:\n${out}`);
    try {
      const res = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
      if (res.status === 404 && path === '/readyz') path = '/healthz';
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin, port, child, output: () => out };
}
