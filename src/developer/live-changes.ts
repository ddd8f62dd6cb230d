import { randomBytes } from 'node:crypto';
import type { StoredClient } from '../../adapters/store.js';
import { type Actor, OPERATOR } from './actor.js';
import { applyEdit, type Edit, withAppLock } from './app-change.js';
import type { AppRecorder } from './app-history.js';
import { APP_LIMITS } from './app-input.js';
import { assertCallbackFits, callbackAdded, urlSet, urlSettingOf } from './app-url-edits.js';
import type { DeveloperDeps } from './deps.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from './errors.js';

/**
 * Changes to a live app that decide where codes or people are sent — a callback URL added, the logout_url
 * or the initiate_login_uri set — wait for an operator's review before they take effect
 * (docs/developer-area.md → Changes to a live app). Until then the app keeps its approved settings, so one
 * team member's stolen account cannot point real pupils' codes (with `prompt=none`, silently) or the
 * school's sign-out at a host of the thief's. Removing a callback URL and clearing a URL take effect at once:
 * they send nobody anywhere new, and a team may need them in a hurry.
 *
 * Proposals are kept per app in the store (one setting: an app has a handful at most), written under the
 * app's lock like every change to it, and recorded in its history and the log: proposed, withdrawn,
 * approved, declined.
 */
export type ChangeKind = 'redirect_uri' | 'logout_url' | 'initiate_login_uri';

export interface ProposedChange {
  id: string;
  kind: ChangeKind;
  url: string;
  proposedBy: { id: string; name: string };
  /** ISO 8601. */
  proposedAt: string;
}

/** At most this many changes wait per app: enough for any real need, bounded for the store. */
export const MAX_PROPOSALS = 10;

const settingName = (clientId: string) => `app-proposals:${clientId}`;
const NO_SUCH_CHANGE = 'No such change is waiting for review (it may have been withdrawn or decided).';

/** Whether a change by `actor` to `client` waits for review: a developer's change to a live developer-area app. */
export const reviewed = (client: StoredClient, actor: Actor): boolean =>
  client.status === 'live' && client.source === 'developer' && actor.id !== OPERATOR.id;

/** The edit a proposal makes once approved (ValidationError when it no longer fits the app). */
function editOf(client: StoredClient, change: ProposedChange): Edit | undefined {
  return change.kind === 'redirect_uri' ? callbackAdded(client, change.url) : urlSet(client, urlSettingOf(change.kind), change.url);
}

/** What a proposal is called in the history's detail and the log. */
const detailOf = (change: ProposedChange): Record<string, string> => ({ change_id: change.id, setting: change.kind, url: change.url });

export class LiveChanges {
  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock'>, private readonly recorder: AppRecorder) {}

  /** The app's changes waiting for review, oldest first. */
  async list(clientId: string): Promise<ProposedChange[]> {
    const raw = await this.deps.store.getSetting(settingName(clientId));
    return raw ? (JSON.parse(raw) as ProposedChange[]) : [];
  }

  /** Every live app with changes waiting, oldest proposal first (the operator's queue). */
  async listAll(): Promise<{ client: StoredClient; changes: ProposedChange[] }[]> {
    const live = (await this.deps.store.listClients()).filter((c) => c.source === 'developer' && c.status === 'live');
    const withChanges = (await Promise.all(live.map(async (client) => ({ client, changes: await this.list(client.clientId) }))))
      .filter((a) => a.changes.length > 0);
    return withChanges.sort((a, b) => a.changes[0]!.proposedAt.localeCompare(b.changes[0]!.proposedAt));
  }

  /**
   * Records a change for review. Call under the app's lock, with the app as stored now. A proposal for a
   * single URL replaces the one waiting for the same setting; the same callback URL twice is refused.
   */
  async propose(actor: Actor, client: StoredClient, kind: ChangeKind, url: string): Promise<ProposedChange> {
    const waiting = await this.list(client.clientId);
    if (kind === 'redirect_uri') {
      assertCallbackFits(client, url);
      if (waiting.some((c) => c.kind === kind && c.url === url)) {
        throw new ValidationError([{ path: kind, message: 'This callback URL is already waiting for review.' }]);
      }
      const callbacks = waiting.filter((c) => c.kind === 'redirect_uri').length;
      if (client.redirectUris.length + callbacks >= APP_LIMITS.callbacks) {
        throw new ValidationError([{ path: kind, message: `An app can have at most ${APP_LIMITS.callbacks} callback URLs, counting those waiting for review: remove one first.` }]);
      }
    }
    const kept = waiting.filter((c) => kind === 'redirect_uri' || c.kind !== kind);
    if (kept.length >= MAX_PROPOSALS) {
      throw new ConflictError(`At most ${MAX_PROPOSALS} changes can wait for review: withdraw one first.`);
    }
    const change: ProposedChange = {
      id: randomBytes(6).toString('hex'), kind, url, proposedBy: { id: actor.id, name: actor.name }, proposedAt: this.deps.clock.now().toISOString(),
    };
    await this.#write(client.clientId, [...kept, change]);
    await this.recorder.change(actor, client.clientId, 'change.proposed', detailOf(change), 'app.change_proposed', 'change to a live app waiting for review');
    return change;
  }

  /** A team member takes back a change still waiting (NotFoundError when there is none with this id). */
  async withdraw(actor: Actor, clientId: string, changeId: string): Promise<void> {
    await withAppLock(this.deps.store, clientId, async () => {
      const change = await this.#take(clientId, changeId);
      await this.recorder.change(actor, clientId, 'change.withdrawn', detailOf(change), 'app.change_withdrawn', 'change to a live app withdrawn');
    });
  }

  /** Operator: the change takes effect now, on every instance (ValidationError when it no longer fits the app: decline it). */
  async approve(actor: Actor, clientId: string, changeId: string): Promise<StoredClient> {
    this.#operatorOnly(actor);
    const { store } = this.deps;
    return withAppLock(store, clientId, async () => {
      const client = await store.findClient(clientId);
      if (!client || client.source !== 'developer') throw new NotFoundError();
      if (client.status !== 'live') throw new ConflictError('This app is not live: its changes need no review.');
      const change = (await this.list(clientId)).find((c) => c.id === changeId);
      if (!change) throw new NotFoundError(NO_SUCH_CHANGE);
      const edit = editOf(client, change);
      const next = edit ? await applyEdit(this.deps, this.recorder, actor, clientId, edit) : client;
      await this.#take(clientId, changeId);
      await this.recorder.change(actor, clientId, 'change.approved', detailOf(change), 'app.change_approved', 'change to a live app approved');
      return next;
    });
  }

  /** Operator: the change is dropped, with a note the app's team sees in its history. */
  async decline(actor: Actor, clientId: string, changeId: string, note?: string): Promise<ProposedChange> {
    this.#operatorOnly(actor);
    const reviewNote = note?.trim() || undefined;
    if (reviewNote && reviewNote.length > APP_LIMITS.reviewNoteLength) {
      throw new ValidationError([{ path: 'note', message: `The note can be at most ${APP_LIMITS.reviewNoteLength} characters long.` }]);
    }
    return withAppLock(this.deps.store, clientId, async () => {
      const change = await this.#take(clientId, changeId);
      await this.recorder.change(actor, clientId, 'change.declined', { ...detailOf(change), ...(reviewNote ? { note: reviewNote } : {}) },
        'app.change_declined', 'change to a live app declined');
      return change;
    });
  }

  /** Drops every proposal of an app (it was deleted). */
  forget(clientId: string): Promise<void> {
    return this.deps.store.deleteSetting(settingName(clientId));
  }

  #operatorOnly(actor: Actor): void {
    if (actor.id !== OPERATOR.id) throw new ForbiddenError('Only an operator can approve or decline changes to a live app.');
  }

  /** Removes one proposal (under the app's lock) and returns it. */
  async #take(clientId: string, changeId: string): Promise<ProposedChange> {
    const waiting = await this.list(clientId);
    const change = waiting.find((c) => c.id === changeId);
    if (!change) throw new NotFoundError(NO_SUCH_CHANGE);
    await this.#write(clientId, waiting.filter((c) => c.id !== changeId));
    return change;
  }

  async #write(clientId: string, changes: ProposedChange[]): Promise<void> {
    if (changes.length === 0) await this.deps.store.deleteSetting(settingName(clientId));
    else await this.deps.store.putSetting(settingName(clientId), JSON.stringify(changes));
  }
}
