import { performance } from 'node:perf_hooks';

/** A task would wait longer than its caller allows: come back after `retryAfterSeconds` (503 + Retry-After). */
export class LimiterBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`too busy: try again in ${retryAfterSeconds} s`);
    this.name = 'LimiterBusyError';
  }
}

export interface WaitOptions {
  /** Refuse (LimiterBusyError) instead of queueing when the expected wait is longer than this. */
  maxWaitMs?: number;
}

/** Runs tasks at most `max` at a time: a Limiter in this process, or the primary's (src/cluster/hashing-client.ts). */
export interface Slots {
  run<T>(task: () => Promise<T>, o?: WaitOptions): Promise<T>;
}

/** Gives a slot back; `learn: false` when it was not used (its hold says nothing about how long work takes). */
export type Release = (o?: { learn?: boolean }) => void;

/** How much of each new duration the running average takes in (an exponentially weighted mean). */
const AVERAGE_WEIGHT = 0.2;

/**
 * At most `max` holders at once; the rest wait in order. Keeps argon2 from starving token signing. It
 * learns how long a slot is held, so that it can tell a newcomer how long it would wait and refuse one
 * that would wait longer than it allows (load shedding: a queue that only grows helps nobody).
 */
export class Limiter implements Slots {
  #running = 0;
  #averageMs = 0;
  readonly #queue: (() => void)[] = [];
  constructor(readonly max: number) {}

  /** The expected wait of a holder arriving now: the queue ahead of it, `max` at a time, at the average hold. */
  expectedWaitMs(): number {
    if (this.#running < this.max) return 0;
    return Math.ceil((this.#queue.length + 1) / this.max) * this.#averageMs;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * A slot: resolves to its release (once; later calls do nothing), or rejects with LimiterBusyError.
   * `release({ learn: false })` for a slot given back unused, so that it does not teach a hold of 0 ms.
   */
  async acquire(o: WaitOptions = {}): Promise<Release> {
    if (this.#running >= this.max) {
      const wait = this.expectedWaitMs();
      if (o.maxWaitMs !== undefined && wait > o.maxWaitMs) throw new LimiterBusyError(Math.max(1, Math.ceil(wait / 1000)));
      await new Promise<void>((resolve) => this.#queue.push(resolve));
    } else {
      this.#running += 1;
    }
    const started = performance.now();
    let released = false;
    return ({ learn = true } = {}) => {
      if (released) return;
      released = true;
      const ms = performance.now() - started;
      if (learn) this.#averageMs = this.#averageMs === 0 ? ms : this.#averageMs + AVERAGE_WEIGHT * (ms - this.#averageMs);
      // Hand the slot straight to the next waiter (#running unchanged). Freeing it and letting the waiter
      // take it back later leaves a gap in which a newcomer can take it too, running max + 1 tasks.
      const next = this.#queue.shift();
      if (next) next();
      else this.#running -= 1;
    };
  }

  async run<T>(task: () => Promise<T>, o: WaitOptions = {}): Promise<T> {
    const release = await this.acquire(o);
    try {
      return await task();
    } finally {
      release();
    }
  }
}
