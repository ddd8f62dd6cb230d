import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { argon2Slots } from '../src/cluster/sizing.js';
import { REPO } from './build.js';
import type { MachineLimits } from './machine-limits.js';
import { spawnGroup } from './proc.js';

/**
 * How many argon2 verifications Lanyard runs at once on this machine, all its processes together: the
 * primary hands the slots out to the workers (src/cluster/sizing.ts).
 */
export function lanyardArgon2Concurrency(): { value: number; source: string } {
  return { value: argon2Slots(availableParallelism()), source: 'cores − 1, shared by every worker (src/cluster/sizing.ts)' };
}

/** Runs bench/machine-limits.ts in a process of its own with a thread pool as large as the cores. */
export async function measureMachineLimits(seconds: number, argon2Concurrency: number): Promise<MachineLimits> {
  const pool = Math.max(4, availableParallelism(), Number(process.env.UV_THREADPOOL_SIZE) || 0);
  const child = spawnGroup('machine limits', process.execPath, ['--import', 'tsx', join(REPO, 'bench/machine-limits.ts'), String(seconds), String(argon2Concurrency)], {
    env: { ...process.env, UV_THREADPOOL_SIZE: String(pool) }, cwd: REPO,
  });
  let out = '';
  let err = '';
  child.child.stdout?.on('data', (c: Buffer) => { out += c.toString(); });
  child.child.stderr?.on('data', (c: Buffer) => { err = (err + c.toString()).slice(-4000); });
  const code = await child.exited;
  await child.stop();
  if (code !== 0) throw new Error(`measuring the machine's limits failed (${code}):\n${err}`);
  return JSON.parse(out.trim().split('\n').pop()!) as MachineLimits;
}
