import type { StoredClient } from '../../adapters/store.js';
import { withStoreLock } from '../accounts/store-lock.js';
import type { Actor } from './actor.js';
import type { AppRecorder } from './app-history.js';
import type { DeveloperDeps } from './deps.js';

/** A change to an app's settings and what the history records of it. */
export interface Edit {
  client: StoredClient;
  action: string;
  detail: Record<string, string | string[]>;
  /** Stores what the new version refers to (a fetched logo), under the lock, before it is written. */
  before?: () => Promise<void>;
  /** Tidies up after it is written (the logos it no longer names), still under the lock. */
  after?: () => Promise<void>;
}

/** Changes to one app are made one at a time across every instance (read, check, write). */
const LOCK = { ttlMs: 10_000, waitMs: 5_000 };

/** Runs `work` holding the app's lock in the store (so two instances never interleave a read-check-write). */
export const withAppLock = <T>(store: DeveloperDeps['store'], clientId: string, work: () => Promise<T>): Promise<T> =>
  withStoreLock(store, `developer-app:${clientId}`, LOCK, work);

/** The log event of a history action: `callback.added` → `app.callback_added`. */
export const logEventOf = (action: string): string => `app.${action.replace(/^app\./, '').replace('.', '_')}`;

/**
 * One change to an app's settings, under the app's lock: `find` reads the app as stored now (and checks the
 * actor may reach it), `edit` returns the new version with what to record (undefined: nothing changed,
 * nothing written or recorded). The history's action `callback.added` is logged as `app.callback_added`.
 */
export async function changeApp(
  deps: Pick<DeveloperDeps, 'store' | 'clock'>,
  recorder: AppRecorder,
  actor: Actor,
  clientId: string,
  find: () => Promise<StoredClient>,
  edit: (client: StoredClient) => Edit | undefined,
): Promise<StoredClient> {
  return withAppLock(deps.store, clientId, async () => {
    const client = await find();
    const edited = edit(client);
    return edited ? applyEdit(deps, recorder, actor, clientId, edited) : client;
  });
}

/** Writes an edit and records it (history and log). Call holding the app's lock (withAppLock). */
export async function applyEdit(
  deps: Pick<DeveloperDeps, 'store' | 'clock'>, recorder: AppRecorder, actor: Actor, clientId: string, edited: Edit,
): Promise<StoredClient> {
  const next = { ...edited.client, updatedAt: deps.clock.now().toISOString() };
  await edited.before?.();
  await deps.store.putClient(next);
  await edited.after?.();
  await recorder.change(actor, clientId, edited.action, edited.detail, logEventOf(edited.action), 'app changed');
  return next;
}
