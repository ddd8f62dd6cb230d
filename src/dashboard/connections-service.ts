import type { AppConnection, Organisation, Store, StoredClient } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { SANDBOX_SLUG } from '../config/reserved.js';
import { LanyardError } from '../errors.js';
import { type SchoolApp, schoolApps } from './school-apps.js';

/** A refusal of `lanyard apps connect|disconnect`, said for the operator. */
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
}

export interface Connected {
  organisation: Organisation;
  client: StoredClient;
  connection: AppConnection;
  /** True when the connection replaced one (new types or place). */
  replaced: boolean;
}

/**
 * The operator's side of a school's apps (docs/dashboard-and-app-launch.md) (`lanyard apps connect|disconnect|connections`): which apps a school
 * uses. A connection made here sits beside the configuration file's (`organisations[].apps`, which stay
 * the file's to change), and takes effect at once on every instance.
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
    if (existing?.source === 'config') {
      throw new ConnectionRefused(`"${client.clientId}" is connected to ${organisation.slug} by the configuration file: change it in organisations[].apps`);
    }
    const others = (await this.store.listConnections(organisation.id)).filter((c) => c.clientId !== client.clientId);
    const connection: AppConnection = {
      organisationId: organisation.id,
      clientId: client.clientId,
      userTypes: r.userTypes ? [...new Set(r.userTypes)] : undefined,
      position: r.position !== undefined ? r.position - 1 : existing?.position ?? nextPosition(others),
      source: 'operator',
      createdAt: existing?.createdAt ?? this.clock.now().toISOString(),
    };
    if (r.position !== undefined) await this.#makeRoom(others, connection.position);
    await this.store.putConnection(connection);
    return { organisation, client, connection, replaced: existing !== undefined };
  }

  async disconnect(organisationRef: string, clientId: string): Promise<{ organisation: Organisation; client: StoredClient | undefined }> {
    const organisation = await this.#organisation(organisationRef);
    const existing = await this.store.findConnection(organisation.id, clientId);
    const client = await this.store.findClient(clientId);
    if (!existing) {
      if (client?.allOrganisations) {
        throw new ConnectionRefused(`"${clientId}" is a configuration-file app of every school: list the apps each school uses in organisations[].apps instead`);
      }
      throw new ConnectionRefused(`"${clientId}" is not connected to ${organisation.slug} (see \`lanyard apps connections --org ${organisation.slug}\`)`);
    }
    if (existing.source === 'config') {
      throw new ConnectionRefused(`"${clientId}" is connected to ${organisation.slug} by the configuration file: remove it from organisations[].apps`);
    }
    await this.store.deleteConnection(organisation.id, clientId);
    return { organisation, client };
  }

  async list(organisationRef: string): Promise<{ organisation: Organisation; apps: SchoolApp[] }> {
    const organisation = await this.#organisation(organisationRef);
    return { organisation, apps: await schoolApps(this.store, organisation.id) };
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

  /** Moves the operator's connections at `position` and after it one place down (the file's keep the file's order). */
  async #makeRoom(others: AppConnection[], position: number): Promise<void> {
    for (const c of others) {
      if (c.position >= position && c.source === 'operator') await this.store.putConnection({ ...c, position: c.position + 1 });
    }
  }
}

const nextPosition = (others: AppConnection[]): number => others.reduce((n, c) => Math.max(n, c.position + 1), 0);
