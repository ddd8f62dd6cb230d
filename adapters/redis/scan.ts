import type { Redis } from 'ioredis';

/** How many keys (or hash fields) one SCAN step asks for: bounded, so Redis is never blocked for long. */
const SCAN_COUNT = 500;

/**
 * The keys matching `match`, batch by batch, without blocking Redis (never KEYS). SCAN may return a key
 * twice; `unique` filters repeats (export and counts need exact lists, the sweep does not).
 */
export async function* scanKeys(client: Redis, match: string, unique = false): AsyncGenerator<string[]> {
  const seen = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', match, 'COUNT', SCAN_COUNT);
    cursor = next;
    const fresh = unique ? keys.filter((k) => !seen.has(k) && seen.add(k)) : keys;
    if (fresh.length) yield fresh;
  } while (cursor !== '0');
}

/** A hash's fields and values, batch by batch (HSCAN), each field once. */
export async function* scanHash(client: Redis, key: string): AsyncGenerator<[field: string, value: string][]> {
  const seen = new Set<string>();
  let cursor = '0';
  do {
    const [next, flat] = await client.hscan(key, cursor, 'COUNT', SCAN_COUNT);
    cursor = next;
    const batch: [string, string][] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      if (!seen.has(flat[i]!)) {
        seen.add(flat[i]!);
        batch.push([flat[i]!, flat[i + 1]!]);
      }
    }
    if (batch.length) yield batch;
  } while (cursor !== '0');
}
