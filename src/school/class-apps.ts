import type { Store, StoredClient, User } from '../../adapters/store.js';
import { dashboardApps } from '../clients/school-apps.js';

/** An app on the dashboards of a class's pupils, and how many of them have it there. */
export interface ClassApp {
  client: StoredClient;
  pupils: number;
}

/**
 * Which apps the class has on its dashboard (docs/school-console.md → Your classes): for each pupil, the tiles
 * their own dashboard shows (src/clients/school-apps.ts dashboardApps: their school's apps that are live and
 * admit their type), counted over the class; in the order the first pupils' dashboard shows them.
 */
export async function classApps(store: Pick<Store, 'listConnections' | 'listClients' | 'findOrganisation'>, pupils: readonly User[]): Promise<ClassApp[]> {
  // Pupils of one school and type see the same dashboard: asked once per group.
  const groups = new Map<string, User[]>();
  for (const pupil of pupils) {
    const key = `${pupil.organisationId}\n${pupil.type}`;
    groups.set(key, [...(groups.get(key) ?? []), pupil]);
  }
  const apps = new Map<string, ClassApp>();
  for (const members of groups.values()) {
    const organisation = await store.findOrganisation(members[0]!.organisationId);
    if (!organisation) continue;
    for (const client of await dashboardApps(store, members[0]!, organisation)) {
      const seen = apps.get(client.clientId);
      if (seen) seen.pupils += members.length;
      else apps.set(client.clientId, { client, pupils: members.length });
    }
  }
  return [...apps.values()];
}
