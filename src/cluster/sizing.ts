import { availableParallelism } from 'node:os';

/**
 * How a machine's cores are shared between the worker processes (LANYARD_WORKERS) and, inside each, between
 * libuv's thread pool jobs: RSA signatures and argon2 hashes both run there.
 *
 * argon2 is bounded for the whole machine, every worker together (the primary hands the slots out:
 * hashing-broker.ts), so that one core's worth is always left for everything else (signing tokens above
 * all) when many users sign in at once; never below one.
 */
export function argon2Slots(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/**
 * Threads in a worker's libuv pool (and a process serving alone's, `workers` 1): room for every argon2
 * slot (they are shared, so one worker may hold them all), its share of the cores for signatures, and one
 * for file and DNS work. Fewer would let a burst of sign-ins hold every thread while signatures wait; many
 * more only add contention. Never below libuv's default of 4.
 */
export function threadPoolSize(workers: number, cores = availableParallelism()): number {
  return Math.max(4, argon2Slots(cores) + Math.ceil(cores / workers) + 1);
}
