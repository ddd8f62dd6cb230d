import { ENTRY_KINDS, type EntryKind, type StoreEntry, type Transfer } from '../store.js';

export type EntryValue<K extends EntryKind> = Extract<StoreEntry, { kind: K }>['value'];

/** How the Redis store reads, counts and writes one kind of entry; each domain module gives its own. */
export interface EntryIO<K extends EntryKind> {
  /** Live entries only. */
  read(): AsyncIterable<EntryValue<K>>;
  /** How many `read` gives, when there is a cheaper way than reading them. */
  count?(): Promise<number>;
  /** Writes the entry as it is (ids, hashes, times kept); one already expired is skipped. */
  write(value: EntryValue<K>): Promise<void>;
  /** The entries' order matters (a list): they are written one after another, never side by side. */
  ordered?: boolean;
}

export type EntryIOs = { [K in EntryKind]: EntryIO<K> };

/** Entries of one kind written at once: they never refer to each other, so their order does not matter (unless `ordered`). */
const WRITE_BATCH = 100;

/**
 * `lanyard store copy` for Redis. Unlike SQLite's one transaction, an import is not atomic: a failed one
 * can be run again (every write replaces).
 */
export function redisTransfer(io: EntryIOs): Transfer {
  const count = async <K extends EntryKind>(kind: K): Promise<number> => {
    const kindIO = io[kind] as EntryIO<K>;
    if (kindIO.count) return kindIO.count();
    let n = 0;
    for await (const _ of kindIO.read()) n += 1;
    return n;
  };
  const write = async <K extends EntryKind>(kind: K, values: EntryValue<K>[]) => {
    const kindIO = io[kind] as EntryIO<K>;
    if (kindIO.ordered) for (const v of values) await kindIO.write(v);
    else await Promise.all(values.map((v) => kindIO.write(v)));
  };

  return {
    async *exportEntries() {
      for (const kind of ENTRY_KINDS) {
        for await (const value of io[kind].read()) yield { kind, value } as StoreEntry;
      }
    },
    async importEntries(entries) {
      // Kind after kind (what an entry refers to is written before it), a batch of one kind at a time.
      let i = 0;
      while (i < entries.length) {
        const kind = entries[i]!.kind;
        const batch: EntryValue<EntryKind>[] = [];
        while (i < entries.length && entries[i]!.kind === kind && batch.length < WRITE_BATCH) batch.push(entries[i++]!.value);
        await write(kind, batch as EntryValue<typeof kind>[]);
      }
    },
    async countEntries() {
      const counts = await Promise.all(ENTRY_KINDS.map(count));
      return Object.fromEntries(ENTRY_KINDS.map((k, i) => [k, counts[i]])) as Record<EntryKind, number>;
    },
  };
}
