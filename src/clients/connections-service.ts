import type { AppConnection, Organisation, Store, StoredClient } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { SANDBOX_SLUG } from '../config/reserved.js';
import { LanyardError } from '../errors.js';
import { type SchoolApp, schoolApps } from './school-apps.js';

/** A refusal of a change to a school's apps (`lanyard apps connect|disconnect`, the school console), said for people. */
export class ConnectionRefused extends LanyardError {
  constructor(message: string) {
    super('connection_refused', message, 400, true);
  }
}

/** SPEC: user `type` — what config/schema.json accepts (e.g. student, employee, admin). */
const USER_TYPE = /^[a-z_]{1,32}$/;

export interface ConnectRequest {
  organisation: string;
  clientId: string;
  /** Only these user types; undefined: every user. */
  userTypes?: string[] | undefined;
  /** 1-based place on the dashboard; undefined: after the school's other apps (or where it already is). */
  position?: number | undefined;
  /** Who connects: the operator (the command line, the default) or a school admin (the school console). */
  source?: 'operator' | 'school' | undefined;
}

export interface Connected {
  organisation: Organisation;
  client: StoredClient;
  connection: AppConnection;
  /** True when the connection replaced one (new types or place). */
  replaced: boolean;
}

/**
 * Changes to which apps a school uses (docs/dashboard-and-app-launch.md → Which apps a school uses): by the
 * operator (`lanyard apps connect|disconnect|connections`) and by the school's admins in the school console
 * (docs/school-console.md → Apps), who decide there which apps they may connect. A connection made here sits
 * beside the configuration file's (`organisations[].apps`, which stay the file's to change), and takes effect
 * at once on every instance.
 */
export class ConnectionsService {
  constructor(private readonly store: Store, private readonly clock: Clock) {}

  async connect(r: ConnectRequest): Promise<Connected> {
    const [organisation, client] = await Promise.all([this.#organisation(r.organisation), this.#client(r.clientId)]);
    const bad = (r.userTypes ?? []).filter((t) => !USER_TYPE.test(t));
    if (bad.length) throw new ConnectionRefused(`not a user type: ${bad.map((t) => JSON.stringify(t)).join(', ')} (lowercase letters and _, e.g. student, employee)`);
    if (r.userTypes && !r.userTypes.length) throw new ConnectionRefused('--types needs at least one user type');
    if (r.position !== undefined && (!Number.isInteger(r.position) || r.position < 1)) throw new ConnectionRefused('--position is a place on the dashboard: 1, 2, 3, …');
    const existing = await this.store.findConnection(organisation.id, client.clientId);
    this.#notTheFiles(existing, organisation, client.clientId, 'change it in organisations[].apps');
    const others = (await this.store.listConnections(organisation.id)).filter((c) => c.clientId !== client.clientId);
    const connection: AppConnection = {
      organisationId: organisation.id,
      clientId: client.clientId,
      userTypes: r.userTypes ? [...new Set(r.userTypes)] : undefined,
      position: existing?.position ?? nextPosition(others),
      // A change keeps who connected it; a new connection is the connecter's.
      source: existing?.source ?? r.source ?? 'operator',
      createdAt: existing?.createdAt ?? this.clock.now().toISOString(),
    };
    if (r.position !== undefined) {
      await this.#inOrder(withPlace(others, connection, r.position - 1), client.clientId);
    } else {
      await this.store.putConnection(connection);
    }
    const stored = (await this.store.findConnection(organisation.id, client.clientId)) ?? connection;
    return { organisation, client, connection: stored, replaced: existing !== undefined };
  }

  /**
   * Moves a connected app to a 1-based place among the school's connections (a place past the end: the last);
   * the others keep their order. The file's own connections are moved only by the file.
   */
  async move(organisationRef: string, clientId: string, place: number): Promise<AppConnection[]> {
    const organisation = await this.#organisation(organisationRef);
    const all = await this.store.listConnections(organisation.id);
    const moving = all.find((c) => c.clientId === clientId);
    if (!moving) throw new ConnectionRefused(`"${clientId}" is not connected to ${organisation.slug}`);
    this.#notTheFiles(moving, organisation, clientId, 'change its place in organisations[].apps');
    if (!Number.isInteger(place) || place < 1) throw new ConnectionRefused('a place on the dashboard is 1, 2, 3, …');
    return this.#inOrder(withPlace(all.filter((c) => c.clientId !== clientId), moving, place - 1));
  }

  async disconnect(organisationRef: string, clientId: string): Promise<{ organisation: Organisation; client: StoredClient | undefined; connection: AppConnection }> {
    const organisation = await this.#organisation(organisationRef);
    const existing = await this.store.findConnection(organisation.id, clientId);
    const client = await this.store.findClient(clientId);
    if (!existing) {
      if (client?.allOrganisations) {
        throw new ConnectionRefused(`"${clientId}" is a configuration-file app of every school: list the apps each school uses in organisations[].apps, or set "config_apps": "offered"`);
      }
      throw new ConnectionRefused(`"${clientId}" is not connected to ${organisation.slug} (see \`lanyard apps connections --org ${organisation.slug}\`)`);
    }
    this.#notTheFiles(existing, organisation, clientId, 'remove it from organisations[].apps');
    await this.store.deleteConnection(organisation.id, clientId);
    return { organisation, client, connection: existing };
  }

  async list(organisationRef: string): Promise<{ organisation: Organisation; apps: SchoolApp[] }> {
    const organisation = await this.#organisation(organisationRef);
    return { organisation, apps: await schoolApps(this.store, organisation.id) };
  }

  #notTheFiles(existing: AppConnection | undefined, organisation: Organisation, clientId: string, instead: string): void {
    if (existing?.source === 'config') {
      throw new ConnectionRefused(`"${clientId}" is connected to ${organisation.slug} by the configuration file: ${instead}`);
    }
  }

  async #organisation(ref: string): Promise<Organisation> {
    const organisation = await this.store.findOrganisation(ref);
    if (!organisation) throw new ConnectionRefused(`no organisation "${ref}" (its slug or id)`);
    if (organisation.slug === SANDBOX_SLUG) throw new ConnectionRefused('the sandbox school signs in only apps in development: nothing is connected to it');
    return organisation;
  }

  async #client(clientId: string): Promise<StoredClient> {
    const client = await this.store.findClient(clientId);
    if (!client) throw new ConnectionRefused(`no app "${clientId}" (see \`lanyard apps list\`)`);
    return client;
  }

  /**
   * Writes the school's connections in this order (positions 0, 1, 2, …): each whose place changed, and
   * `changed` (a new or changed connection) in any case. The file's connections take the file's places again
   * at the next start (src/dashboard/config-connections.ts).
   */
  async #inOrder(ordered: AppConnection[], changed?: string): Promise<AppConnection[]> {
    const placed = ordered.map((c, position) => ({ ...c, position }));
    for (const [i, c] of placed.entries()) {
      if (ordered[i]!.position !== c.position || c.clientId === changed) await this.store.putConnection(c);
    }
    return placed;
  }
}

const nextPosition = (others: AppConnection[]): number => others.reduce((n, c) => Math.max(n, c.position + 1), 0);

/** The connections with one more at a 0-based index (past the end: the last). */
const withPlace = (others: AppConnection[], connection: AppConnection, index: number): AppConnection[] =>
  [...others.slice(0, index), connection, ...others.slice(index)];
