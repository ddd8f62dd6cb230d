import type { Registry } from 'prom-client';
import { type Operation, wrapOperations } from '../../adapters/guarded-store.js';
import type { Store } from '../../adapters/store.js';
import { CheapHistogram } from './cheap-histogram.js';

/**
 * Times every asynchronous Store operation. The timed store is built once, by the walk that builds
 * adapters/guarded-store.ts's guard (wrapOperations): a plain object with one small function per method
 * (no Proxy trap on every property read), each observing into its own row of a CheapHistogram. A call adds
 * two clock reads, a promise reaction and an observation; see docs/operations.md → Metrics for what that costs against
 * SQLite's fastest read.
 */

/** From 10 µs (an SQLite read from the page cache) to 2.5 s (a store in trouble). */
const STORE_BUCKETS = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export type StoreTimer = (store: Store) => Store;

/** A function that returns a timed copy of a store, observing into `registry`; timing a timed store again returns it. */
export function storeTimer(registry: Registry): StoreTimer {
  const histogram = new CheapHistogram({
    name: 'lanyard_store_operation_duration_seconds',
    help: 'Time taken by store operations (SQLite or Redis), by operation; oidc-provider records are oidc.*.',
    labelName: 'operation',
    buckets: STORE_BUCKETS,
    registry,
  });
  const timed = new WeakSet<object>();
  return (store) => {
    if (timed.has(store)) return store;
    const out = wrapOperations(store, (fn, self, operation) => timeFunction(fn, self, histogram.series(operation)));
    timed.add(out);
    return out;
  };
}

function timeFunction(fn: Operation, self: object, observe: (seconds: number) => void): Operation {
  const done = (started: number) => observe((performance.now() - started) / 1e3);
  return (...args: unknown[]) => {
    const started = performance.now();
    const result = fn.apply(self, args);
    // Only promises are operations on the store; anything else (an async iterator of a transfer) passes as is.
    if (!(result instanceof Promise)) return result;
    // The caller gets the store's own promise (no extra hop before it resumes); this branch only observes,
    // and handles the rejection it sees, which the caller handles on its side.
    const finished = () => done(started);
    result.then(finished, finished);
    return result;
  };
}
