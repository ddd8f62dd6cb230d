import { availableParallelism } from 'node:os';

/**
 * How a machine's cores are shared between the worker processes (LANYARD_WORKERS) and, inside each, between
 * libuv's thread pool jobs: RSA signatures and argon2 hashes both run there.
 *
 * argon2 is bounded per process so that the machine keeps at least one core's worth for everything else
 * (signing tokens above all) when many users sign in at once, and never below one per process.
 */
export function argon2Concurrency(workers: number, cores = availableParallelism()): number {
  return Math.max(1, Math.floor((cores - 1) / workers));
}

/**
 * Threads in a worker's libuv pool: its argon2 slots, its share of the cores for signatures, and one for
 * file and DNS work. Fewer would let a burst of sign-ins hold every thread while signatures wait; many more
 * only add contention. Never below libuv's default of 4.
 */
export function threadPoolSize(workers: number, cores = availableParallelism()): number {
  return Math.max(4, argon2Concurrency(workers, cores) + Math.ceil(cores / workers) + 1);
}
