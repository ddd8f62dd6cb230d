import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { REPO } from './build.js';
import type { Argon2Now, MachineLimits } from './machine-limits.js';
import { keepTail, spawnGroup } from './proc.js';

/** Runs bench/machine-limits.ts in a process of its own with a thread pool as large as the cores. */
async function runMachineLimits<T>(name: string, args: string[]): Promise<T> {
  const pool = Math.max(4, availableParallelism(), Number(process.env.UV_THREADPOOL_SIZE) || 0);
  const child = spawnGroup(name, process.execPath, ['--import', 'tsx', join(REPO, 'bench/machine-limits.ts'), ...args], {
    env: { ...process.env, UV_THREADPOOL_SIZE: String(pool) }, cwd: REPO,
  });
  let out = '';
  child.child.stdout?.on('data', (c: Buffer) => { out += c.toString(); });
  const closed = once(child.child, 'close').catch(() => {}); // its output read to the end ('exit' may come first)
  const err = keepTail(child.child.stderr);
  const code = await child.exited;
  await closed;
  await child.stop();
  if (code !== 0) throw new Error(`measuring ${name} failed (${code}):\n${err()}`);
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

/** RSA-4096 signing on all cores and argon2id verification, one at a time and at `argon2Concurrency`. */
export const measureMachineLimits = (seconds: number, argon2Concurrency: number): Promise<MachineLimits> =>
  runMachineLimits('machine limits', [String(seconds), String(argon2Concurrency)]);

/** argon2id verifications per second at `concurrency`, now (the machine's speed drifts on a VM). */
export const measureArgon2Now = (seconds: number, concurrency: number): Promise<Argon2Now> =>
  runMachineLimits<Argon2Now>('argon2id verification', [String(seconds), String(concurrency), 'argon2']);
