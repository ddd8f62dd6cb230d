import type { AppConnection, Store } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { OrganisationSeed } from '../config/schema.js';
import { appSeedClientId } from '../config/file.js';
import { ConfigError } from '../errors.js';

/**
 * Writes the configuration file's `organisations[].apps` into the store at startup (docs/dashboard-and-app-launch.md): each
 * listed app is connected to the school in the listed order, for the listed user types. Connections the
 * file made before and no longer lists are removed; an operator's connection (`lanyard apps connect`) of
 * an app the file now lists becomes the file's. Runs after the file's organisations and clients are
 * written. An entry naming no client (neither in `clients` nor registered in the developer area) stops
 * startup with its JSON path.
 */
export async function syncConfigConnections(store: Store, organisations: OrganisationSeed[], clock: Clock): Promise<void> {
  const now = clock.now().toISOString();
  const wanted = new Map<string, AppConnection>(); // `${organisationId} ${clientId}` → connection
  const problems: string[] = [];
  for (const [i, seed] of organisations.entries()) {
    if (!seed.apps?.length) continue;
    const organisation = await store.findOrganisation(seed.slug);
    if (!organisation) continue; // written just before; absent only if the import failed, which already stopped startup
    for (const [j, app] of seed.apps.entries()) {
      const clientId = appSeedClientId(app);
      if (!(await store.findClient(clientId))) {
        problems.push(`/organisations/${i}/apps/${j}: no app "${clientId}": not in "clients", nor registered in the developer area`);
        continue;
      }
      const existing = await store.findConnection(organisation.id, clientId);
      wanted.set(`${organisation.id} ${clientId}`, {
        organisationId: organisation.id,
        clientId,
        userTypes: typeof app === 'string' ? undefined : app.user_types,
        position: j,
        source: 'config',
        createdAt: existing?.createdAt ?? now,
      });
    }
  }
  if (problems.length) throw new ConfigError(problems);
  for (const c of wanted.values()) {
    const existing = await store.findConnection(c.organisationId, c.clientId);
    if (!existing || JSON.stringify(existing) !== JSON.stringify(c)) await store.putConnection(c);
  }
  for (const client of await store.listClients()) {
    for (const c of await store.listClientConnections(client.clientId)) {
      if (c.source === 'config' && !wanted.has(`${c.organisationId} ${c.clientId}`)) await store.deleteConnection(c.organisationId, c.clientId);
    }
  }
}
