import type { Clock } from '../src/clock.js';
import { LanyardError } from '../src/errors.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './store.js';

/** Opens the backend named by a store URL (`sqlite:./data/lanyard.db`, `sqlite::memory:`). */
export function openStore(url: string, clock: Clock): Store {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (!path) throw new LanyardError('config_invalid', `LANYARD_STORE "${url}": sqlite: needs a file path`);
    return openSqliteStore(path, clock);
  }
  throw new LanyardError('config_invalid', `LANYARD_STORE "${url}": unsupported store; use sqlite:<path>`);
}

/** The data directory of a store URL: where generated secrets (the key-encryption key) are kept. */
export function storeDataDir(url: string): string | undefined {
  if (!url.startsWith('sqlite:') || url === 'sqlite::memory:') return undefined;
  const path = url.slice('sqlite:'.length);
  const i = path.lastIndexOf('/');
  return i === -1 ? '.' : path.slice(0, i) || '/';
}

/** Opens the store for one command and always closes it. */
export async function withStore<T>(url: string, clock: Clock, work: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(url, clock);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
