import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from './ports.js';

export interface Teardown { teardown(fn: () => unknown): void }

export interface RedisServer {
  port: number;
  host: '127.0.0.1';
  dir: string;
  /** redis://127.0.0.1:PORT */
  url: string;
  pid: number;
  running: boolean;
  /** SIGTERM (Redis flushes its AOF), then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL, then waits for the exit: a crash. */
  kill(): Promise<void>;
  /** Starts again on the same port and dir, so the AOF is reloaded. */
  start(): Promise<void>;
}

export interface StartRedisOptions { aof?: boolean; port?: number; dir?: string; replicaOf?: { host: string; port: number } }

export interface SentinelSet {
  primary: RedisServer;
  replica: RedisServer;
  sentinel: { port: number; host: '127.0.0.1' };
  masterName: string;
  /** redis-sentinel://127.0.0.1:SENTINELPORT/NAME */
  url: string;
  /** Crashes the primary and waits until the sentinel has promoted the replica. */
  failover(): Promise<void>;
}

const HOST = '127.0.0.1';

export { freePort };

/**
 * The environment a Lanyard instance on a test's Redis is started with: the store, a key prefix of its own
 * (`<name>-<random>`, so files sharing one server never meet), and a key-encryption key (required with Redis).
 */
export const redisStoreEnv = (url: string, name: string) => ({
  LANYARD_STORE: url,
  LANYARD_REDIS_PREFIX: `${name}-${randomBytes(4).toString('hex')}`,
  LANYARD_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
});

export function findRedisServer(): string {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, 'redis-server'));
  const found = ['/usr/bin/redis-server', ...onPath].find((p) => existsSync(p));
  // A missing server is a broken environment, not a reason to skip.
  if (!found) throw new Error('redis-server not found: apt-get install redis-server');
  return found;
}

/** One short-lived connection with no retries or offline queue, so a dead server fails fast. */
async function withClient<T>(port: number, fn: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis({
    host: HOST, port, lazyConnect: true, enableReadyCheck: false, enableOfflineQueue: false,
    maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000, commandTimeout: 2000,
  });
  client.on('error', () => {});
  try { await client.connect(); return await fn(client); } finally { client.disconnect(); }
}

const info = (port: number, section: string) => withClient(port, (c) => c.info(section));

const masterAddr = (sentinelPort: number, name: string) =>
  withClient(sentinelPort, (c) => c.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name) as Promise<string[] | null>);

/** Thrown from a wait check to give up at once (the process died) instead of polling on. */
class Fatal extends Error {}

/** Polls `check` until it returns something other than undefined; bounded in tries and time. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, detail = () => ''): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let i = 0; i < 2000 && Date.now() < deadline; i += 1) {
    try { const value = await check(); if (value !== undefined) return value; } catch (err) {
      if (err instanceof Fatal) throw new Error(`${err.message} while waiting for ${what}${detail()}`);
      last = err;
    }
    await sleep(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}${detail()}`);
}

// Unref'd, so a grace timer that lost the race doesn't hold the test process open.
const exitOrTimeout = (exited: Promise<void>, ms: number) => Promise.race([exited, sleep(ms, undefined, { ref: false })]);

class Server implements RedisServer {
  readonly host = HOST;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private done = true;
  private output = '';

  constructor(public port: number, readonly dir: string, private readonly logFile: string, private readonly argsFor: (port: number) => string[]) {}

  get url() { return `redis://${HOST}:${this.port}`; }
  get pid() { return this.child?.pid ?? -1; }
  get running() { return !this.done; }

  async start(): Promise<void> {
    if (this.running) throw new Error(`redis-server on port ${this.port} is already running`);
    const child = spawn(findRedisServer(), this.argsFor(this.port), { stdio: ['ignore', 'pipe', 'pipe'] });
    [this.child, this.done, this.output] = [child, false, ''];
    // Early failures (bad config, port taken) reach stdout/stderr before the log file opens.
    const keep = (chunk: Buffer) => { this.output = (this.output + chunk.toString()).slice(-4000); };
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', keep);
    this.exited = new Promise((resolve) => {
      const finish = () => { if (this.child === child) this.done = true; resolve(); };
      child.once('exit', finish);
      child.once('error', (err) => { keep(Buffer.from(String(err))); finish(); });
    });
    await waitFor(`redis-server on port ${this.port} to answer PING`, async () => {
      if (!this.running) throw new Fatal(`redis-server on port ${this.port} exited`);
      // Check the process id: a foreign server already on this port would answer PING too.
      return await withClient(this.port, async (c) =>
        /process_id:(\d+)/.exec(await c.info('server'))?.[1] === String(child.pid) && await c.ping() === 'PONG' ? true : undefined);
    }, 10_000, () => this.tail());
  }

  stop(): Promise<void> { return this.halt('SIGTERM', 10_000); }
  kill(): Promise<void> { return this.halt('SIGKILL', 10_000); }

  /** Sends `signal`, escalating to SIGKILL if the process outlives `graceMs`. */
  async halt(signal: NodeJS.Signals, graceMs: number): Promise<void> {
    if (!this.running || !this.child) return;
    this.child.kill(signal);
    await exitOrTimeout(this.exited, graceMs);
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await exitOrTimeout(this.exited, 5000);
    if (this.running) throw new Error(`redis-server pid ${this.pid} did not exit after SIGKILL`);
  }

  tail(): string {
    const log = existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8').split('\n').slice(-20).join('\n') : '';
    return `\n--- output ---\n${this.output}\n--- ${this.logFile} (tail) ---\n${log}`;
  }
}

const baseArgs = (port: number, dir: string, logFile: string) => [
  '--port', String(port), '--bind', HOST, '--protected-mode', 'no', '--daemonize', 'no', '--dir', dir, '--logfile', logFile,
];

/** Starts the server; a port we picked ourselves may be taken in the meantime, so retry on a fresh one. */
async function startOnFreePort(server: Server, fixedPort: boolean): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try { return await server.start(); } catch (err) {
      if (fixedPort || server.running || attempt >= 3) throw err;
      server.port = await freePort();
    }
  }
}

export async function startRedis(t: Teardown, options: StartRedisOptions = {}): Promise<RedisServer> {
  findRedisServer();
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'lanyard-redis-'));
  const logFile = join(dir, 'redis.log');
  const aof = options.aof ?? true;
  const server = new Server(options.port ?? await freePort(), dir, logFile, (port) => [
    // No diskless-sync delay: otherwise a replica waits 5 s for its first sync.
    ...baseArgs(port, dir, logFile), '--save', '', '--repl-diskless-sync-delay', '0',
    '--appendonly', aof ? 'yes' : 'no', ...(aof ? ['--appendfsync', 'always'] : []),
    ...(options.replicaOf ? ['--replicaof', options.replicaOf.host, String(options.replicaOf.port)] : []),
  ]);
  // One teardown, so the process is gone before its dir is removed.
  t.teardown(async () => {
    await server.halt('SIGTERM', 3000);
    if (!options.dir) rmSync(dir, { recursive: true, force: true });
  });
  await startOnFreePort(server, options.port !== undefined);
  return server;
}

export async function startSentinelSet(t: Teardown, options: { masterName?: string } = {}): Promise<SentinelSet> {
  const masterName = options.masterName ?? 'lanyard';
  const primary = await startRedis(t);
  const replica = await startRedis(t, { replicaOf: { host: HOST, port: primary.port } });
  await waitFor(`replica ${replica.port} to sync`, async () =>
    (await info(replica.port, 'replication')).includes('master_link_status:up') ? true : undefined, 15_000);

  // Sentinel rewrites its config file, so it lives in a throwaway dir.
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-sentinel-'));
  const conf = join(dir, 'sentinel.conf');
  const logFile = join(dir, 'sentinel.log');
  writeFileSync(conf, [
    'sentinel resolve-hostnames no',
    `sentinel monitor ${masterName} ${HOST} ${primary.port} 1`,
    // Long enough that a busy CI machine never makes the sentinel demote a healthy primary by itself (writes
    // made meanwhile would be lost when it resyncs); failover() asks for the promotion explicitly instead.
    `sentinel down-after-milliseconds ${masterName} 5000`,
    `sentinel failover-timeout ${masterName} 5000`,
  ].join('\n') + '\n');
  const sentinel = new Server(await freePort(), dir, logFile, (port) => [conf, '--sentinel', ...baseArgs(port, dir, logFile)]);
  t.teardown(async () => {
    await sentinel.halt('SIGTERM', 3000);
    rmSync(dir, { recursive: true, force: true });
  });
  await startOnFreePort(sentinel, false);
  await waitFor('sentinel to report the primary', async () =>
    (await masterAddr(sentinel.port, masterName))?.[1] === String(primary.port) ? true : undefined, 10_000, () => sentinel.tail());
  // A failover can only promote a replica the sentinel has discovered and is talking to.
  await waitFor('sentinel to discover the replica', async () => {
    const replicas = await withClient(sentinel.port, (c) => c.call('SENTINEL', 'REPLICAS', masterName)) as string[][];
    return replicas.some((r) => {
      const fields = new Map(r.flatMap((v, i) => (i % 2 === 0 ? [[v, r[i + 1]] as const] : [])));
      return fields.get('port') === String(replica.port) && fields.get('flags') === 'slave';
    }) ? true : undefined;
  }, 15_000, () => sentinel.tail());

  return {
    primary, replica, masterName,
    sentinel: { port: sentinel.port, host: HOST },
    url: `redis-sentinel://${HOST}:${sentinel.port}/${masterName}`,
    async failover() {
      // Replication is asynchronous: wait until the replica has every acknowledged write (as it would in the
      // steady state), so the test measures Lanyard's recovery, not Redis's replication lag.
      // WAIT counts only this connection's own writes, so it writes a marker first: replication is in order,
      // so a replica that has the marker has everything written before it, by any client.
      const acked = await withClient(primary.port, async (c) => {
        await c.set('lanyard-test:failover-marker', String(Date.now()));
        // Steps of 1.5 s (under withClient's 2-second command timeout), up to 15 s on a busy machine.
        for (let i = 0; i < 10; i += 1) if (Number(await c.call('WAIT', '1', '1500')) >= 1) return true;
        return false;
      });
      if (!acked) throw new Error('the replica did not acknowledge the primary\'s writes within 15 s');
      await primary.kill();
      await waitFor(`sentinel to start the failover`, async () => {
        try {
          await withClient(sentinel.port, (c) => c.call('SENTINEL', 'FAILOVER', masterName));
          return true;
        } catch (err) {
          return /INPROG/.test(String(err)) ? true : undefined; // already under way
        }
      }, 15_000, () => sentinel.tail());
      await waitFor(`sentinel to promote replica ${replica.port}`, async () => {
        if ((await masterAddr(sentinel.port, masterName))?.[1] !== String(replica.port)) return undefined;
        return (await info(replica.port, 'replication')).includes('role:master') ? true : undefined;
      }, 30_000, () => sentinel.tail());
    },
  };
}
