import type { StoredClient } from '../../adapters/store.js';
import { type Actor, OPERATOR } from './actor.js';
import { changeApp, type Edit, withAppLock } from './app-change.js';
import type { AppRecorder } from './app-history.js';
import { APP_LIMITS } from './app-input.js';
import type { DeveloperDeps } from './deps.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from './errors.js';

/** The history action of a request to go live (AppService.requestLive records it). */
export const LIVE_REQUESTED = 'app.live_requested';

/** An app waiting to go live, with when it asked (ISO 8601; undefined when its recent history no longer says). */
export interface PendingRequest {
  client: StoredClient;
  requestedAt: string | undefined;
}

/**
 * The operator's side of going live (docs/developer-area.md): the queue of requests, approving (pending → live) and
 * declining with a note the developers see (pending → development). Only the operator (the `lanyard` CLI's
 * OPERATOR actor) may decide; developers ask through AppService.requestLive.
 */
export class AppReview {
  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock'>, private readonly recorder: AppRecorder) {}

  /** Every app registered in the developer area, by name. */
  async listAll(): Promise<StoredClient[]> {
    return (await this.deps.store.listClients()).filter((c) => c.source === 'developer')
      .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
  }

  /** When the app last asked to go live, from its history (undefined when it never did). */
  requestedAt(clientId: string): Promise<string | undefined> {
    return this.recorder.lastAt(clientId, LIVE_REQUESTED);
  }

  /** The apps waiting to go live, oldest request first (the request's time is in the app's history). */
  async listPending(): Promise<PendingRequest[]> {
    const pending = (await this.deps.store.listClients()).filter((c) => c.source === 'developer' && c.status === 'pending');
    const requested = await Promise.all(pending.map(async (client) => ({ client, requestedAt: await this.requestedAt(client.clientId) })));
    const order = (r: PendingRequest) => r.requestedAt ?? r.client.updatedAt;
    return requested.sort((a, b) => order(a).localeCompare(order(b)));
  }

  /**
   * pending → live, and every grant the app was given in development ends with it (docs/developer-area.md →
   * Going live): its refresh tokens, access tokens, codes and grants, all of sandbox users. They are revoked
   * before the app changes, so a store failure leaves it pending with nothing half-done, and once more after,
   * for a sandbox sign-in that completed in between; from then on only real schools' users get codes.
   */
  async approve(actor: Actor, clientId: string): Promise<StoredClient> {
    this.#checkOperator(actor);
    const { store, clock } = this.deps;
    return withAppLock(store, clientId, async () => {
      const client = await this.#find(clientId);
      this.#checkPending(client);
      const before = await store.oidc.revokeByClientId(clientId);
      const live: StoredClient = { ...client, status: 'live', reviewNote: undefined, updatedAt: clock.now().toISOString() };
      await store.putClient(live);
      const revoked = before + (await store.oidc.revokeByClientId(clientId));
      await this.recorder.change(actor, clientId, 'app.approved', {}, 'app.approved', 'app approved: live, its development grants revoked', {
        sandboxRecordsRevoked: revoked,
      });
      return live;
    });
  }

  async decline(actor: Actor, clientId: string, note?: string): Promise<StoredClient> {
    const reviewNote = note?.trim() || undefined;
    if (reviewNote && reviewNote.length > APP_LIMITS.reviewNoteLength) {
      throw new ValidationError([{ path: 'note', message: `The note can be at most ${APP_LIMITS.reviewNoteLength} characters long.` }]);
    }
    const detail: Record<string, string> = reviewNote ? { note: reviewNote } : {};
    return this.#decide(actor, clientId, (client) => ({ client: { ...client, status: 'development', reviewNote }, action: 'app.declined', detail }));
  }

  async #decide(actor: Actor, clientId: string, edit: (client: StoredClient) => Edit): Promise<StoredClient> {
    this.#checkOperator(actor);
    return changeApp(this.deps, this.recorder, actor, clientId, () => this.#find(clientId), (client) => {
      this.#checkPending(client);
      return edit(client);
    });
  }

  #checkOperator(actor: Actor): void {
    if (actor.id !== OPERATOR.id) throw new ForbiddenError('Only an operator can approve or decline apps.');
  }

  async #find(clientId: string): Promise<StoredClient> {
    const client = await this.deps.store.findClient(clientId);
    if (!client || client.source !== 'developer') throw new NotFoundError();
    return client;
  }

  #checkPending(client: StoredClient): void {
    if (client.status !== 'pending') throw new ConflictError(`This app is ${client.status === 'live' ? 'already live' : 'not waiting for review'}.`);
  }
}
