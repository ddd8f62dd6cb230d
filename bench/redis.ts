import { existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports.js';
import { type Group, spawnGroup } from './proc.js';

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
 * (README: appendonly yes) with Redis's default fsync policy (everysec), in the bench's temporary directory.
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
  const server: RedisServer = { url: `redis://127.0.0.1:${port}`, group, persistence, stop: () => group.stop(5_000) };
  let exited = false;
  void group.exited.then(() => { exited = true; });
  for (let i = 0; i < 100 && !exited; i += 1) {
    if (await ping(port)) return server;
    await sleep(100);
  }
  await server.stop();
  throw new Error(`redis-server did not answer on port ${port} (see ${join(data, 'redis.log')})`);
}
