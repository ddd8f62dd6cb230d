import type { ConfigRevision, Store } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { StoreUnavailableError } from '../errors.js';
import { decideRevision, type RevisionOutcome, sameRevision, writesClients } from './config-revision.js';

/** How long an instance's report of its revision counts without being renewed (renewed every third of it). */
export const RUNNING_REVISION_TTL_MS = 90_000;

/** The store lock held while one instance decides and writes (at most this long, should it crash). */
const LOCK = 'config-revision';
const LOCK_TTL_MS = 60_000;
/** How long to wait for another instance's turn, and how often to look. */
const LOCK_WAIT_MS = LOCK_TTL_MS + 5_000;
const LOCK_RETRY_MS = 100;

export interface RevisionGate {
  store: Store;
  clock: Clock;
  /** The revision of this instance's file. */
  mine: ConfigRevision;
  /**
   * This instance (src/clients/config-revision.ts newInstanceId), recorded as running `mine`; its cluster
   * workers report as `<instance>/<pid>`.
   */
  instance: string;
  /** Writes the file's clients (and the schools' app lists) into the store. */
  write(): Promise<void>;
}

/**
 * Writes the file's clients only if its revision allows (decideRevision), one instance at a time (a store
 * lock), then records the store's revision and that this instance runs `mine`; resolves the outcome
 * (docs/operations.md → Rolling configuration changes).
 */
export async function writeUnderRevision(g: RevisionGate): Promise<RevisionOutcome> {
  const token = await takeLock(g.store);
  try {
    const stored = await g.store.getConfigRevision();
    const running = await g.store.listRunningRevisions();
    const elsewhere = Boolean(stored && running.some((r) => !ownProcess(r.instance, g.instance) && sameRevision(r, stored)));
    const outcome = decideRevision(g.mine, stored, elsewhere);
    if (writesClients(outcome)) {
      await g.write();
      if (outcome !== 'same') {
        const next = { ...g.mine, writtenAt: g.clock.now().toISOString(), writtenBy: g.instance };
        // Under the lock nobody else swaps; a store changed by hand meanwhile is not overwritten blindly.
        if (!(await g.store.swapConfigRevision(stored, next))) throw new StoreUnavailableError(new Error('the store\'s configuration revision changed while it was being written'));
      }
    }
    await g.store.reportRunningRevision(g.instance, g.mine, RUNNING_REVISION_TTL_MS);
    return outcome;
  } finally {
    await g.store.unlock(LOCK, token);
  }
}

/**
 * Whether a report is this instance's own: itself, or one of its cluster workers (`<instance>/<pid>`, which a
 * reload replaces, so they do not hold the store's revision against it).
 */
const ownProcess = (reporter: string, instance: string) => reporter === instance || reporter.startsWith(`${instance}/`);

async function takeLock(store: Store): Promise<string> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const token = await store.tryLock(LOCK, LOCK_TTL_MS);
    if (token) return token;
    if (Date.now() > deadline) throw new StoreUnavailableError(new Error('another instance kept the configuration lock too long'));
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
}
