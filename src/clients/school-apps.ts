import type { AppConnection, Organisation, Store, StoredClient, User } from '../../adapters/store.js';
import { connectionAdmits } from './app-availability.js';
import { SANDBOX_SLUG } from '../config/reserved.js';

/** An app a school uses, with the connection that says so (none: a configuration-file app of every school, `config_apps: "every_school"`). */
export interface SchoolApp {
  client: StoredClient;
  connection?: AppConnection | undefined;
}

/**
 * The apps a school uses, in its order (docs/dashboard-and-app-launch.md): its connections by position, then the
 * configuration file's apps of every school that it has not connected itself, by name. Clients that no
 * longer exist are left out. Whether each may sign users in now (live, for their type) is the caller's.
 */
export async function schoolApps(store: Pick<Store, 'listConnections' | 'listClients'>, organisationId: string): Promise<SchoolApp[]> {
  const [connections, clients] = await Promise.all([store.listConnections(organisationId), store.listClients()]);
  const byId = new Map(clients.map((c) => [c.clientId, c]));
  const connected: SchoolApp[] = connections.flatMap((connection) => {
    const client = byId.get(connection.clientId);
    return client ? [{ client, connection }] : [];
  });
  const own = new Set(connections.map((c) => c.clientId));
  const everywhere = clients
    .filter((c) => c.allOrganisations && !own.has(c.clientId))
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.clientId.localeCompare(b.clientId))
    .map((client) => ({ client }));
  return [...connected, ...everywhere];
}

/**
 * Whether a launch from the dashboard can open the app: OpenID Connect Core §4 through its
 * initiate_login_uri, or a provider-initiated code, which needs default scopes (with none the
 * authorization request is `invalid_scope`, RFC 6749 §3.3).
 */
export const launchable = (client: StoredClient): boolean => client.initiateLoginUri !== undefined || client.defaultScopes.length > 0;

/**
 * The tiles of a user's dashboard: the school's apps that are live, admit the user's type, and can be
 * launched. The sandbox school's users are never shown live apps (the availability rule refuses them).
 */
export async function dashboardApps(store: Pick<Store, 'listConnections' | 'listClients'>, user: User, organisation: Organisation): Promise<StoredClient[]> {
  if (organisation.slug === SANDBOX_SLUG) return [];
  return (await schoolApps(store, organisation.id))
    .filter(({ client, connection }) => client.status === 'live' && client.source !== 'builtin'
      && (!connection || connectionAdmits(connection, user.type)) && launchable(client))
    .map(({ client }) => client);
}
