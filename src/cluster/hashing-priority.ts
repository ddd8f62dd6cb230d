import { readdirSync, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';
import type { Log } from '../startup/startup.js';

/**
 * How much lower than serving the primary's libuv threads run, where every argon2 hash of the machine runs
 * (hashing-broker.ts): nice + 5. When the cores are all busy, the kernel gives the workers' threads (signing
 * tokens, answering pages) about three times the share of a hashing thread (Linux's weights for nice 0 and
 * 5: 1024 and 335); when they are not, a hash runs at full speed. So in a rush of sign-ins a pupil waits a
 * little longer, or is told sooner to come back, rather than every token and refresh slowing down (docs/performance.md:
 * argon2 must not starve signing).
 */
export const HASHING_NICE = 5;

/** How libuv names its pool's threads (libuv ≥ 1.50; Node 24 has it). */
const POOL_THREAD = 'libuv-worker';

/**
 * Lowers the priority of this process's libuv pool threads only, by HASHING_NICE from where they are: the
 * main thread keeps its own, so the workers it forks later (at startup, after a death, on a reload) start
 * at the usual priority. Linux only (threads are listed in /proc); elsewhere, or with an older libuv that
 * does not name its threads, hashing keeps the usual priority and the log says so. Returns how many threads
 * were lowered.
 */
export async function lowerHashingPriority(log: Log, by = HASHING_NICE): Promise<number> {
  await access('.').catch(() => {}); // libuv starts its pool (every thread at once) with the first job given to it
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    log.info({ event: 'hashing.priority_unchanged', reason: 'no /proc' }, 'hashing keeps the usual priority');
    return 0;
  }
  let lowered = 0;
  for (const tid of threads) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== POOL_THREAD) continue;
      setPriority(Number(tid), Math.min(19, getPriority(Number(tid)) + by));
      lowered += 1;
    } catch {
      // A thread that ended meanwhile (not the pool's: its threads live as long as the process).
    }
  }
  if (lowered === 0) log.info({ event: 'hashing.priority_unchanged', reason: 'no libuv pool threads found' }, 'hashing keeps the usual priority');
  else log.debug({ event: 'hashing.priority', by, threads: lowered }, 'hashing runs at a lower priority than serving');
  return lowered;
}
