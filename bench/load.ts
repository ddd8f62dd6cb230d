import { performance } from 'node:perf_hooks';
import { errorKey } from './http.js';

/** What one measured run produced: the figures every scenario reports. */
export interface Figure {
  /** Successful operations per second over the run's wall time. */
  rate: number;
  ok: number;
  /** Failed operations by HTTP status (or network error code). */
  errors: Record<string, number>;
  /** Latency percentiles in milliseconds, over successful operations. */
  p50: number;
  p95: number;
  p99: number;
  seconds: number;
  concurrency: number;
  /** CPU time the server spent per successful operation, ms (cpu.ts withServerCpu), where measured. */
  cpuMsPerOp?: number;
  /** CPU time the load generator (the bench's own process, on the same cores) spent per successful operation, ms. */
  generatorCpuMsPerOp?: number;
}

/** Collects latencies and error tallies; percentiles are computed once, at the end. */
export class Recorder {
  readonly latencies: number[] = [];
  readonly errors: Record<string, number> = {};

  ok(ms: number): void { this.latencies.push(ms); }

  /** Counts a failure under `key`: by default the HTTP status or network error code. */
  fail(err: unknown, key = errorKey(err)): void {
    this.errors[key] = (this.errors[key] ?? 0) + 1;
  }

  /** The figures over `seconds` of wall time (the concurrency is the runner's to add). */
  figure(seconds: number): Omit<Figure, 'concurrency'> {
    const sorted = Float64Array.from(this.latencies).sort();
    return {
      rate: seconds > 0 ? this.latencies.length / seconds : 0,
      ok: this.latencies.length,
      errors: this.errors,
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
      seconds,
    };
  }
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface LoadOptions<T> {
  /** The work items (codes, refresh tokens, …), one per operation; without them, no limit but the count and the time. */
  items?: T[];
  concurrency: number;
  /** At most this many operations (default: items.length, or unbounded without items). */
  maxCount?: number;
  /** Stop starting new operations after this long. */
  maxSeconds: number;
  /** One operation; throws to count an error. */
  run: (item: T) => Promise<unknown>;
  /** Stops early when this returns true (checked before each operation). */
  stop?: () => boolean;
  /** Told how many items were started, so that the caller can keep the rest (unused codes stay valid). */
  started?: (count: number) => void;
}

/**
 * Closed-loop load: `concurrency` loops each start the next operation as soon as theirs is done, until the
 * items, the count or the time run out. The rate is over the wall time until the last one finished.
 */
export async function runLoad<T>(o: LoadOptions<T>): Promise<Figure> {
  const rec = new Recorder();
  const total = o.maxCount ?? o.items?.length ?? Number.POSITIVE_INFINITY;
  const start = performance.now();
  const deadline = start + o.maxSeconds * 1000;
  let started = 0;
  const loop = async () => {
    while (started < total && performance.now() < deadline && !o.stop?.()) {
      const i = started++; // outside `?.`: counted with items or without
      const item = o.items?.[i] as T;
      const t0 = performance.now();
      try {
        await o.run(item);
        rec.ok(performance.now() - t0);
      } catch (err) {
        rec.fail(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, total)) }, loop));
  o.started?.(started);
  return { ...rec.figure((performance.now() - start) / 1000), concurrency: o.concurrency };
}

/** Runs `fn` over the items with bounded concurrency, untimed (preparation: collecting codes). */
export async function forEachBounded<T, R>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let i = 0;
  const loop = async () => {
    while (i < items.length) {
      const k = i++;
      out[k] = await fn(items[k]!, k);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, loop));
  return out;
}
