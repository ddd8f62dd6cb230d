import { availableParallelism } from 'node:os';

/**
 * How a machine's cores and memory are shared between the worker processes (LANYARD_WORKERS) and, inside each, between
 * libuv's thread pool jobs: RSA signatures (in the processes that serve) and argon2 hashes (in the primary,
 * for every worker, or in a process serving alone).
 *
 * argon2 is bounded for the whole machine, every worker together (the primary does the hashing:
 * hashing-broker.ts), so that one core's worth is always left for everything else (signing tokens above
 * all) when many users sign in at once; never below one.
 */
export function argon2Slots(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/**
 * Threads in a process's libuv pool. `workers` 1 is a process that hashes: one serving alone, or the primary
 * (src/cli.ts sizes it before it knows which): room for every argon2 slot, every core for signatures, and
 * one for file and DNS work. A worker of several hashes nothing itself: its share of the cores for
 * signatures, and one. Never below libuv's default of 4.
 */
export function threadPoolSize(workers: number, cores = availableParallelism()): number {
  if (workers <= 1) return Math.max(4, argon2Slots(cores) + cores + 1);
  return Math.max(4, Math.ceil(cores / workers) + 1);
}

/**
 * The largest semi-space of a worker's young generation, in MiB. V8 sizes it from the machine's memory (up
 * to 64 MiB on a large one, so about 190 MiB of young generation per worker); a worker's garbage is short-
 * lived requests, and 16 MiB holds them as well: the bench's soak showed workers settling at about 255 MiB
 * instead of 360 MiB, sooner, with the same CPU per exchange and per sign-in (docs/performance.md).
 */
export const WORKER_SEMI_SPACE_MB = 16;

/** Node reads `-` and `_` in an option's name alike. */
const SEMI_SPACE_FLAG = /--max[-_]semi[-_]space[-_]size\b/;

/**
 * The Node options a worker is forked with: the primary's own, and the young generation's bound unless the
 * operator has set one (on the command line or in NODE_OPTIONS, which a command-line flag would override).
 */
export function workerExecArgv(execArgv: readonly string[], nodeOptions: string): string[] {
  if (execArgv.some((arg) => SEMI_SPACE_FLAG.test(arg)) || SEMI_SPACE_FLAG.test(nodeOptions)) return [...execArgv];
  return [...execArgv, `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`];
}
