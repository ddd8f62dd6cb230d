/**
 * Which revision of the configuration file's clients the store holds, and which revision each running
 * instance was started with (docs/operations.md → Rolling configuration changes). Every instance writes the
 * file's clients at startup; these let an instance see whether its file is newer, the same or older than the
 * one the store holds, and which revisions the instances on the store run right now.
 */

/** A revision of the configuration file's clients: the file's `revision` number and a hash of what it writes. */
export interface ConfigRevision {
  version: number;
  /** `sha256:<hex>` of the clients (and school app lists) the file gives, as written into the store. */
  hash: string;
}

/** The revision whose clients the store holds: when, and by which instance, it was written. */
export interface StoredConfigRevision extends ConfigRevision {
  writtenAt: string;
  writtenBy: string;
  /**
   * The stored text, when it could not be read as a revision (edited by hand, say): it then counts as
   * UNREADABLE_REVISION, older than any file's, so the next instance to start writes over it.
   */
  unreadable?: string | undefined;
}

/** What an unreadable stored revision counts as: version -1, older than any file's (whose is 0 or more). */
export const UNREADABLE_REVISION = { version: -1, hash: 'unreadable' } as const;

/** An instance's report of the revision it runs, until `expiresAt` (epoch milliseconds on the store's clock). */
export interface RunningRevision extends ConfigRevision {
  instance: string;
  expiresAt: number;
}

export interface ConfigRevisions {
  /** The revision whose clients the store holds; undefined before any was recorded. */
  getConfigRevision(): Promise<StoredConfigRevision | undefined>;
  /**
   * Records `next` as the store's revision, atomically and only if the stored one is still `expected`
   * (undefined: none is stored); resolves whether it did.
   */
  swapConfigRevision(expected: StoredConfigRevision | undefined, next: StoredConfigRevision): Promise<boolean>;
  /** Records (or renews) that `instance` runs `revision`, for `ttlMs` on the store's clock. */
  reportRunningRevision(instance: string, revision: ConfigRevision, ttlMs: number): Promise<void>;
  /** Every report that has not expired, ordered by instance. */
  listRunningRevisions(): Promise<RunningRevision[]>;
  /** Removes an instance's report (an instance that stops); nothing when there is none. */
  forgetRunningRevision(instance: string): Promise<void>;
}

/** The setting that holds the store's revision: copied with the clients by `lanyard store copy`. */
export const CONFIG_REVISION_SETTING = 'config-revision';

/**
 * The stored revision as text, its fields always in one order, so two texts of one revision are equal; an
 * unreadable one as it was read (what a swap from it must find).
 */
export const serializeStoredRevision = (r: StoredConfigRevision): string =>
  r.unreadable ?? JSON.stringify({ version: r.version, hash: r.hash, writtenAt: r.writtenAt, writtenBy: r.writtenBy });

/** The stored revision; one that cannot be read as such is UNREADABLE_REVISION (never a throw: readiness and startup go on). */
export function parseStoredRevision(text: string | undefined | null): StoredConfigRevision | undefined {
  if (!text) return undefined;
  try {
    const r = JSON.parse(text) as Partial<StoredConfigRevision>;
    if (Number.isInteger(r.version) && typeof r.hash === 'string' && typeof r.writtenAt === 'string' && typeof r.writtenBy === 'string') {
      return { version: r.version!, hash: r.hash, writtenAt: r.writtenAt, writtenBy: r.writtenBy };
    }
  } catch { /* below */ }
  return { ...UNREADABLE_REVISION, writtenAt: '', writtenBy: '', unreadable: text };
}
