import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { REPO } from './build.js';
import type { MachineLimits } from './machine-limits.js';
import { keepTail, spawnGroup } from './proc.js';

/** Runs bench/machine-limits.ts in a process of its own with a thread pool as large as the cores. */
export async function measureMachineLimits(seconds: number, argon2Concurrency: number): Promise<MachineLimits> {
  const pool = Math.max(4, availableParallelism(), Number(process.env.UV_THREADPOOL_SIZE) || 0);
  const child = spawnGroup('machine limits', process.execPath, ['--import', 'tsx', join(REPO, 'bench/machine-limits.ts'), String(seconds), String(argon2Concurrency)], {
    env: { ...process.env, UV_THREADPOOL_SIZE: String(pool) }, cwd: REPO,
  });
  let out = '';
  child.child.stdout?.on('data', (c: Buffer) => { out += c.toString(); });
  const err = keepTail(child.child.stderr);
  const code = await child.exited;
  await child.stop();
  if (code !== 0) throw new Error(`measuring the machine's limits failed (${code}):\n${err()}`);
  return JSON.parse(out.trim().split('\n').pop()!) as MachineLimits;
}
