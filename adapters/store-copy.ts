import { ENTRY_KINDS, type EntryKind, type Store, type StoreEntry } from './store.js';
import type { Clock } from '../src/clock.js';
import { LanyardError } from '../src/errors.js';

/**
 * Copies every entry of one store into another and proves it arrived (`lanyard store copy`,
 * src/cli/store-command.ts). Entries stream from `exportEntries()` into `importEntries()` in batches, so a
 * large store never sits in memory whole; expiry times are absolute, so with one clock for both stores
 * sessions, grants and tokens keep their remaining lifetimes.
 */

export type KindCounts = Record<EntryKind, number>;

export type CopyProgress =
  /** A batch reached the target. `total` is the source's count at the start (a live source may grow). */
  | { type: 'batch'; kind: EntryKind; copied: number; total: number }
  /** Every entry of `kind` is in the target; reported for every kind, in ENTRY_KINDS order, even empty ones. */
  | { type: 'kind-done'; kind: EntryKind; count: number; copied: number; total: number };

export interface CopyOptions {
  clock: Clock;
  /** Copy into a store that already holds entries (entries with the same identity are replaced). */
  merge?: boolean | undefined;
  batchSize?: number | undefined;
  onProgress?: ((progress: CopyProgress) => void) | undefined;
}

export interface Shortfall { kind: EntryKind; expected: number; held: number }

export interface CopyReport {
  /** Entries read from the source and written to the target, per kind. */
  copied: KindCounts;
  /** Of those, the ones certainly still live when the target was counted (records and counters expire). */
  expected: KindCounts;
  /** What the target holds afterwards. */
  held: KindCounts;
  /** Entries copied in all. */
  entries: number;
  /** Kinds of which the target holds fewer than expected: empty when the copy is verified. */
  shortfalls: Shortfall[];
}

export const DEFAULT_BATCH_SIZE = 500;

const zeroCounts = (): KindCounts => Object.fromEntries(ENTRY_KINDS.map((k) => [k, 0])) as KindCounts;
const sum = (counts: KindCounts): number => ENTRY_KINDS.reduce((n, k) => n + counts[k], 0);

export const nEntries = (n: number): string => `${n} ${n === 1 ? 'entry' : 'entries'}`;

/** `3 entries (organisation 1, user 2)`: the kinds present, for messages. */
export function describeCounts(counts: KindCounts): string {
  const present = ENTRY_KINDS.filter((k) => counts[k] > 0).map((k) => `${k} ${counts[k]}`);
  return `${nEntries(sum(counts))}${present.length ? ` (${present.join(', ')})` : ''}`;
}

/** The kinds of which `held` has fewer than `expected`. */
export function verifyCounts(expected: KindCounts, held: KindCounts): Shortfall[] {
  return ENTRY_KINDS.filter((k) => held[k] < expected[k]).map((kind) => ({ kind, expected: expected[kind], held: held[kind] }));
}

/**
 * Expiry times of copied records, counters, help codes and class links, bucketed by second: a copy may outlast a token, and one
 * that expired on the way is rightly absent from the target. Buckets keep memory small for millions of tokens.
 */
class Expiries {
  readonly #buckets = new Map<EntryKind, Map<number, number>>();
  add(kind: EntryKind, expiresAt: number): void {
    let buckets = this.#buckets.get(kind);
    if (!buckets) this.#buckets.set(kind, buckets = new Map());
    const second = Math.floor(expiresAt / 1000);
    buckets.set(second, (buckets.get(second) ?? 0) + 1);
  }
  /** How many of `kind` may have expired by `now` (a whole second counts if any of it is past). */
  maybeExpired(kind: EntryKind, now: number): number {
    let n = 0;
    for (const [second, count] of this.#buckets.get(kind) ?? []) if (second * 1000 <= now) n += count;
    return n;
  }
}

function expiryOf(entry: StoreEntry): number | undefined {
  if (entry.kind === 'help_code' || entry.kind === 'class_link') return Date.parse(entry.value.expiresAt);
  return entry.kind === 'oidc' || entry.kind === 'counter' ? entry.value.expiresAt : undefined;
}

/**
 * Copies `source` into `target`, then counts both. Refuses a target that already holds entries unless
 * `merge`. Returns the counts; the caller decides what a shortfall means (the command exits non-zero).
 */
export async function copyStore(source: Store, target: Store, options: CopyOptions): Promise<CopyReport> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new LanyardError('store_copy_invalid', `batch size must be a positive integer, not ${batchSize}`);
  const report = (p: CopyProgress) => options.onProgress?.(p);

  const already = await target.countEntries();
  if (sum(already) > 0 && !options.merge) {
    throw new LanyardError('store_copy_target_not_empty',
      `the target already holds ${describeCounts(already)}: copy into an empty store, or add to this one on purpose with --merge`);
  }

  const total = sum(await source.countEntries());
  const copied = zeroCounts();
  const expiries = new Expiries();
  let written = 0;
  let batch: StoreEntry[] = [];
  let nextKind = 0; // index in ENTRY_KINDS of the first kind not yet reported done

  const flush = async () => {
    if (!batch.length) return;
    await target.importEntries(batch);
    written += batch.length;
    report({ type: 'batch', kind: batch[batch.length - 1]!.kind, copied: written, total });
    batch = [];
  };
  // Kinds arrive in ENTRY_KINDS order, so reaching kind i means every kind before it is complete.
  const finishKindsBefore = async (index: number) => {
    if (index <= nextKind) return;
    await flush();
    for (; nextKind < index; nextKind += 1) {
      const kind = ENTRY_KINDS[nextKind]!;
      report({ type: 'kind-done', kind, count: copied[kind], copied: written, total });
    }
  };

  for await (const entry of source.exportEntries()) {
    await finishKindsBefore(ENTRY_KINDS.indexOf(entry.kind));
    batch.push(entry);
    copied[entry.kind] += 1;
    const expiresAt = expiryOf(entry);
    if (expiresAt !== undefined) expiries.add(entry.kind, expiresAt);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  await finishKindsBefore(ENTRY_KINDS.length);

  const held = await target.countEntries();
  // Read after counting: whatever is live now was live when the target counted it.
  const now = options.clock.now().getTime();
  const expected = zeroCounts();
  for (const kind of ENTRY_KINDS) expected[kind] = copied[kind] - expiries.maybeExpired(kind, now);
  return { copied, expected, held, entries: written, shortfalls: verifyCounts(expected, held) };
}
