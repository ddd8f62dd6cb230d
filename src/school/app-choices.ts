import type { AppRequest, Organisation, StoredClient } from '../../adapters/store.js';
import { offeredClientIds } from '../clients/config-clients.js';
import { SchoolAppRequests } from '../clients/school-app-requests.js';
import { type SchoolApp, schoolApps } from '../clients/school-apps.js';
import type { SchoolDeps } from './deps.js';
import { NotInSchoolError } from './errors.js';

/**
 * What a school admin chooses from on the console's Apps page (docs/school-console.md → Apps): the apps the
 * school uses, the apps asking to be used by it, and the configuration file's apps offered to every school.
 * An app is in one of the lists at most; anything else is not the school's to see (404).
 */

/** An app asking the school, with who develops it. */
export interface AskingApp {
  client: StoredClient;
  request: AppRequest;
  /** The display names of its team's owners and members. */
  team: string[];
}

export interface AppChoices {
  /** In the dashboard's order; without a connection: a configuration-file app of every school. */
  apps: SchoolApp[];
  asking: AskingApp[];
  declined: AskingApp[];
  /** Configuration-file apps the school may connect, by name. */
  offered: StoredClient[];
}

export const requestsOf = (deps: Pick<SchoolDeps, 'store' | 'clock'>) => new SchoolAppRequests(deps);

export async function appChoices(deps: SchoolDeps, organisation: Organisation): Promise<AppChoices> {
  const [apps, requests, offered] = await Promise.all([
    schoolApps(deps.store, organisation.id), requestsOf(deps).ofSchool(organisation.id), offeredApps(deps, organisation),
  ]);
  const withTeam = await Promise.all(requests.filter((r) => r.client.status === 'live').map(async (r) => ({ ...r, team: await teamNames(deps, r.client) })));
  return {
    apps,
    asking: withTeam.filter((r) => r.request.status === 'pending'),
    declined: withTeam.filter((r) => r.request.status === 'declined'),
    offered,
  };
}

/** The configuration file's apps offered to schools (`config_apps: "offered"`) that this school does not use. */
async function offeredApps(deps: SchoolDeps, organisation: Organisation): Promise<StoredClient[]> {
  const ids = [...offeredClientIds(deps.config.file)];
  const clients = await Promise.all(ids.map(async (id) => {
    const [client, connection] = await Promise.all([deps.store.findClient(id), deps.store.findConnection(organisation.id, id)]);
    return client?.source === 'config' && client.status === 'live' && !connection ? client : undefined;
  }));
  return clients.filter((c): c is StoredClient => c !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.clientId.localeCompare(b.clientId));
}

async function teamNames(deps: SchoolDeps, client: StoredClient): Promise<string[]> {
  const team = (await deps.store.listTeam(client.clientId)).filter((m) => m.role !== 'invited');
  const accounts = await Promise.all(team.map((m) => deps.store.findDeveloper(m.developerId)));
  return accounts.flatMap((a) => (a ? [a.displayName] : []));
}

/**
 * An app the school admin may connect in the console: one offered to schools, or a configuration-file app of
 * every school (connected here to choose who uses it and where it sits). Anything else: 404.
 */
export async function connectable(deps: SchoolDeps, organisation: Organisation, clientId: string): Promise<StoredClient> {
  const client = clientId ? await deps.store.findClient(clientId) : undefined;
  if (!client || client.status !== 'live') throw new NotInSchoolError();
  if (client.allOrganisations || (offeredClientIds(deps.config.file).has(clientId) && client.source === 'config')) return client;
  throw new NotInSchoolError();
}

/** An app the school uses (connected, or of every school), as the Apps page lists it; a 404 otherwise. */
export async function schoolAppOf(deps: SchoolDeps, organisation: Organisation, clientId: string): Promise<SchoolApp> {
  const found = (await schoolApps(deps.store, organisation.id)).find((a) => a.client.clientId === clientId);
  if (!found) throw new NotInSchoolError();
  return found;
}
