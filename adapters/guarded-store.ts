import { LanyardError, StoreUnavailableError } from '../src/errors.js';
import type { Store } from './store.js';

/**
 * Any error a backend throws (a lost connection, a full disk, a lock held too long) reaches Lanyard's code
 * as StoreUnavailableError, which every endpoint answers with 503 (DESIGN.md → Errors; README → When the
 * store fails). Lanyard's own errors (a LanyardError: "no such key") pass unchanged.
 */
export function guardStore(store: Store): Store {
  return guard(store) as Store;
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

function guard(target: object): object {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    if (typeof value === 'function') out[name] = guardFunction(value as (...a: unknown[]) => unknown, target);
    else if (value && typeof value === 'object') out[name] = guard(value as object);
    else out[name] = value;
  }
  return out;
}

function guardFunction(fn: (...a: unknown[]) => unknown, self: object) {
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
