import { readdirSync, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { setPriority } from 'node:os';
import type { Log } from '../startup.js';

/**
 * The nice value of the primary's libuv threads, where every argon2 hash of the machine runs
 * (hashing-broker.ts). When the cores are all busy, the kernel gives the workers' threads (signing tokens,
 * answering pages) about three times the share of a hashing thread (Linux's weights for nice 0 and 5:
 * 1024 and 335); when they are not, a hash runs at full speed. So a rush of sign-ins queues a little longer
 * rather than slowing every token and refresh (issue 11: argon2 must not starve signing).
 */
export const HASHING_NICE = 5;

/** How libuv names its pool's threads (libuv ≥ 1.45, every Node that Lanyard supports). */
const POOL_THREAD = 'libuv-worker';

/**
 * Lowers the priority of this process's libuv pool threads only: the main thread keeps its own, so the
 * workers it forks later (at startup, after a death, on a reload) start at the usual priority. Linux only
 * (threads are listed in /proc); elsewhere, or if the threads cannot be found, hashing keeps the usual
 * priority and the log says so. Returns how many threads were lowered.
 */
export async function lowerHashingPriority(log: Log, nice = HASHING_NICE): Promise<number> {
  await access('.'); // libuv starts its pool (every thread at once) with the first job given to it
  let lowered = 0;
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== POOL_THREAD) continue;
      setPriority(Number(tid), nice);
      lowered += 1;
    }
  } catch (err) {
    log.warn({ event: 'hashing.priority_unchanged', err }, 'hashing keeps the usual priority');
    return lowered;
  }
  if (lowered === 0) log.warn({ event: 'hashing.priority_unchanged' }, 'no libuv pool threads found: hashing keeps the usual priority');
  else log.debug({ event: 'hashing.priority', nice, threads: lowered }, 'hashing runs at a lower priority than serving');
  return lowered;
}
