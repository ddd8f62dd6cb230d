import { LanyardError, StoreUnavailableError } from '../src/errors.js';
import type { Store } from './store.js';

/**
 * Any error a backend throws (a lost connection, a full disk, a lock held too long) reaches Lanyard's code
 * as StoreUnavailableError, which every endpoint answers with 503 (docs/architecture.md → Errors; docs/storage.md →
 * When the store fails). Lanyard's own errors (a LanyardError: "no such key") pass unchanged.
 */
export function guardStore(store: Store): Store {
  return wrapOperations(store, guardFunction);
}

export type Operation = (...args: unknown[]) => unknown;

/**
 * A copy of `store` (a plain object, built once: no Proxy trap on every property read) in which each
 * function is replaced by `wrap(fn, self, name)`; `self` is the object that holds it, and `name` its path
 * from the store: `putSetting`, `oidc.find`. Nested objects (the `oidc` domain) are walked the same way,
 * any other value is copied. Used by guardStore and by the metrics' store timing (src/metrics/store-timing.ts).
 */
export function wrapOperations<T extends object>(store: T, wrap: (fn: Operation, self: object, name: string) => Operation): T {
  return walk(store, '', wrap) as T;
}

function walk(target: object, prefix: string, wrap: (fn: Operation, self: object, name: string) => Operation): object {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    if (typeof value === 'function') out[name] = wrap(value as Operation, target, prefix + name);
    else if (value && typeof value === 'object') out[name] = walk(value as object, `${prefix}${name}.`, wrap);
    else out[name] = value;
  }
  return out;
}

const wrap = (err: unknown) => (err instanceof LanyardError ? err : new StoreUnavailableError(clean(err)));

/**
 * Only what says what went wrong: ioredis attaches the failed command with its arguments (record ids that are
 * session cookies and token values, payloads, hashes), which must never reach a log line.
 */
function clean(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(String(err));
  const out = new Error(err.message);
  out.name = err.name;
  const { code } = err as { code?: unknown };
  if (code !== undefined) (out as Error & { code?: unknown }).code = code;
  return out;
}

function guardFunction(fn: Operation, self: object): Operation {
  return (...args: unknown[]) => {
    let result: unknown;
    try {
      result = fn.apply(self, args);
    } catch (err) {
      return Promise.reject(wrap(err));
    }
    if (result instanceof Promise) return result.catch((err: unknown) => { throw wrap(err); });
    if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
      return guardIterable(result as AsyncIterable<unknown>);
    }
    return result;
  };
}

async function* guardIterable<T>(source: AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* source;
  } catch (err) {
    throw wrap(err);
  }
}
