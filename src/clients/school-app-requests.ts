import type { AppConnection, AppRequest, Organisation, Store, StoredClient } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { SANDBOX_SLUG } from '../config/reserved.js';
import { LanyardError } from '../errors.js';
import { ConnectionsService } from './connections-service.js';

/** The longest note a developer sends with a request, and the longest reason a school gives for declining. */
export const REQUEST_NOTE_MAX = 500;
export const DECLINE_REASON_MAX = 500;

/** History actions of an app (the developer area's `app:<client_id>` history) about schools. */
export const SCHOOL_ACTIONS = {
  asked: 'school.asked',
  approved: 'school.approved',
  declined: 'school.declined',
  disconnected: 'school.disconnected',
} as const;

/**
 * Why a request to a school was refused: `invalid_request` (400, with the field: `organisation`, `note`,
 * `reason`) or `conflict` (409: the app or the request is not in a state that allows it). Always shown.
 */
export class RequestRefused extends LanyardError {
  constructor(readonly kind: 'invalid' | 'conflict', message: string, readonly field?: string) {
    super(kind === 'invalid' ? 'invalid_request' : 'conflict', message, kind === 'invalid' ? 400 : 409, true);
    this.name = 'RequestRefused';
  }
}

/** A developer asking, by id and by name then. */
export interface RequestActor {
  id: string;
  name: string;
}

/** Where an app stands with one school, as its developers see it. */
export interface SchoolStanding {
  organisation: Pick<Organisation, 'id' | 'slug' | 'name'>;
  status: 'connected' | 'pending' | 'declined';
  request?: AppRequest | undefined;
  connection?: AppConnection | undefined;
}

/**
 * Apps asking to be used by a school (docs/school-console.md → Apps, docs/developer-area.md → Asking a school):
 * a live developer app's owner asks a school, with a short note; the school's admins approve (the app is
 * connected for every user, after the school's other apps, and the request is gone) or decline with a reason
 * the developers read. Each step is written into the app's history, naming the school (never the admin: a
 * school's staff are not a developer's business). Who may ask or answer is the caller's to decide (the
 * developer area: owners; the console: the school's admins); this decides what may happen.
 */
export class SchoolAppRequests {
  readonly #connections: ConnectionsService;

  constructor(private readonly deps: { store: Store; clock: Clock }) {
    this.#connections = new ConnectionsService(deps.store, deps.clock);
  }

  /** The developer asks the school (by slug or id) to use the app. */
  async ask(client: StoredClient, organisationRef: string, asker: RequestActor, note?: string): Promise<AppRequest> {
    const { store, clock } = this.deps;
    const text = checkedText(note, REQUEST_NOTE_MAX, 'note', 'The note');
    if (client.source !== 'developer' || client.status !== 'live') {
      throw new RequestRefused('conflict', 'Only a live app can ask a school: ask to go live first, and try it with the sandbox school meanwhile.');
    }
    const organisation = organisationRef ? await store.findOrganisation(organisationRef) : undefined;
    if (!organisation || organisation.slug === SANDBOX_SLUG) throw new RequestRefused('invalid', 'Choose a school from the search.', 'organisation');
    if (await store.findConnection(organisation.id, client.clientId)) throw new RequestRefused('conflict', `${organisation.name} already uses this app.`);
    const earlier = await store.findAppRequest(organisation.id, client.clientId);
    if (earlier?.status === 'pending') throw new RequestRefused('conflict', `This app has already asked ${organisation.name}: the school has not answered yet.`);
    if (earlier?.status === 'declined') throw new RequestRefused('conflict', `${organisation.name} declined this app. A school that changes its mind approves it from its console.`);
    const request: AppRequest = {
      clientId: client.clientId, organisationId: organisation.id, requestedBy: asker.id, requestedAt: clock.now().toISOString(), note: text, status: 'pending',
    };
    await store.putAppRequest(request);
    await this.#history(client.clientId, asker, SCHOOL_ACTIONS.asked, { school: organisation.name, ...(text ? { note: text } : {}) });
    return request;
  }

  /** A request of the school's (pending or declined) with its app; a RequestRefused 409 when there is none. */
  async requestOf(organisation: Organisation, clientId: string): Promise<{ request: AppRequest; client: StoredClient }> {
    const [request, client] = await Promise.all([this.deps.store.findAppRequest(organisation.id, clientId), this.deps.store.findClient(clientId)]);
    if (!request || !client) throw new RequestRefused('conflict', 'This app is no longer asking to be used by the school.');
    return { request, client };
  }

  /**
   * The school's admin approves: the app is connected (for every user, after the school's other apps) and the
   * request removed. Refused for an app that is no longer live (the operator's approval comes first).
   */
  async approve(organisation: Organisation, clientId: string): Promise<AppConnection> {
    const { client } = await this.requestOf(organisation, clientId);
    if (client.status !== 'live') throw new RequestRefused('conflict', `“${client.name}” is not live any more: it cannot be used by schools.`);
    const { connection } = await this.#connections.connect({ organisation: organisation.id, clientId, source: 'school' });
    await this.deps.store.deleteAppRequest(organisation.id, clientId);
    await this.#history(clientId, schoolActor(organisation), SCHOOL_ACTIONS.approved, { school: organisation.name });
    return connection;
  }

  /** The school's admin declines, with a reason its developers read; the request stays, declined, so it is not asked again. */
  async decline(organisation: Organisation, clientId: string, reason: string): Promise<AppRequest> {
    const answer = checkedText(reason, DECLINE_REASON_MAX, 'reason', 'The reason');
    if (!answer) throw new RequestRefused('invalid', 'Say why, in a sentence: the app’s developers read it.', 'reason');
    const { request } = await this.requestOf(organisation, clientId);
    const declined: AppRequest = { ...request, status: 'declined', answer, answeredAt: this.deps.clock.now().toISOString() };
    await this.deps.store.putAppRequest(declined);
    await this.#history(clientId, schoolActor(organisation), SCHOOL_ACTIONS.declined, { school: organisation.name, reason: answer });
    return declined;
  }

  /** Written into the app's history when a school stops using a developer's app. */
  async disconnected(organisation: Organisation, client: StoredClient | undefined): Promise<void> {
    if (client?.source !== 'developer') return;
    await this.#history(client.clientId, schoolActor(organisation), SCHOOL_ACTIONS.disconnected, { school: organisation.name });
  }

  /** The school's requests with their apps (those still there), pending first, each oldest first. */
  async ofSchool(organisationId: string): Promise<{ request: AppRequest; client: StoredClient }[]> {
    const requests = await this.deps.store.listAppRequests(organisationId);
    const found = await Promise.all(requests.map(async (request) => ({ request, client: await this.deps.store.findClient(request.clientId) })));
    return found.filter((r): r is { request: AppRequest; client: StoredClient } => r.client !== undefined)
      .sort((a, b) => Number(a.request.status !== 'pending') - Number(b.request.status !== 'pending'));
  }

  /** How many live apps are asking the school now (the console's home page says so). */
  async pendingCount(organisationId: string): Promise<number> {
    return (await this.ofSchool(organisationId)).filter((r) => r.request.status === 'pending' && r.client.status === 'live').length;
  }

  /** The app's schools: those that use it, then those asked (pending, declined), each by name. */
  async schoolsOf(clientId: string): Promise<SchoolStanding[]> {
    const { store } = this.deps;
    const [connections, requests] = await Promise.all([store.listClientConnections(clientId), store.listClientAppRequests(clientId)]);
    const out: SchoolStanding[] = [];
    for (const connection of connections) {
      const organisation = await store.findOrganisation(connection.organisationId);
      if (organisation) out.push({ organisation, status: 'connected', connection });
    }
    for (const request of requests) {
      const organisation = await store.findOrganisation(request.organisationId);
      if (organisation && !connections.some((c) => c.organisationId === organisation.id)) out.push({ organisation, status: request.status, request });
    }
    const rank = { connected: 0, pending: 1, declined: 2 };
    return out.sort((a, b) => rank[a.status] - rank[b.status] || a.organisation.name.localeCompare(b.organisation.name, 'en', { sensitivity: 'base' }));
  }

  async #history(clientId: string, actor: RequestActor, action: string, detail: Record<string, string>): Promise<void> {
    await this.deps.store.appendDeveloperEvent({
      subject: `app:${clientId}`, at: this.deps.clock.now().toISOString(), actorId: actor.id, actorName: actor.name, action, detail,
    });
  }
}

/** A school's answer in the app's history: the school, not the person (a developer learns no staff names). */
const schoolActor = (organisation: Organisation): RequestActor => ({ id: `school:${organisation.id}`, name: `${organisation.name} (a school admin)` });

/** Plain text, trimmed; undefined when empty; refused when longer than `max`. */
function checkedText(text: string | undefined, max: number, field: string, what: string): string | undefined {
  const trimmed = text?.trim() ?? '';
  if ([...trimmed].length > max) throw new RequestRefused('invalid', `${what} can be at most ${max} characters long.`, field);
  return trimmed || undefined;
}
