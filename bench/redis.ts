import { existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { freePort } from './ports.js';
import { type Group, spawnGroup, waitReady } from './proc.js';

export interface RedisServer {
  url: string;
  group: Group;
  /** The persistence it runs with, for the report. */
  persistence: string;
  stop(): Promise<void>;
}

export function findRedisServer(): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...dirs.map((d) => join(d, 'redis-server')), '/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));
}

/** One PING over a raw socket: true when the server answers +PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => { socket.destroy(); resolve(ok); };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/**
 * A throwaway redis-server on a free loopback port, persisting as a production Redis for Lanyard should
 * (docs/storage.md → Redis: appendonly yes) with Redis's default fsync policy (everysec), in the bench's temporary directory.
 */
export async function startRedis(binary: string, dir: string): Promise<RedisServer> {
  const port = await freePort();
  const data = join(dir, 'redis');
  mkdirSync(data, { recursive: true });
  const persistence = 'appendonly yes, appendfsync everysec, no RDB snapshots';
  const group = spawnGroup('redis-server', binary, [
    '--port', String(port), '--bind', '127.0.0.1', '--protected-mode', 'no', '--daemonize', 'no',
    '--dir', data, '--logfile', join(data, 'redis.log'),
    '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec',
  ], { stdio: 'ignore' });
  const graceMs = 5_000;
  await waitReady(group, {
    what: 'redis-server', check: async () => (await ping(port)) || undefined, timeoutMs: 10_000, everyMs: 100, graceMs,
    detail: () => ` on port ${port} (see ${join(data, 'redis.log')})`,
  });
  return { url: `redis://127.0.0.1:${port}`, group, persistence, stop: () => group.stop(graceMs) };
}
