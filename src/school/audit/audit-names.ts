import type { Store } from '../../../adapters/store.js';
import type { ClientRegistry } from '../../clients/client-registry.js';

/** Lanyard's own pages, as the trail's `lanyard` client. */
export const LANYARD_APP = 'lanyard';

/**
 * What the audit trail's pages and CSV call a class and an app: its title and name now (events keep only ids
 * for them; the people's names are the ones recorded then). Looked up once a request: the classes at first,
 * each app the first time a page names it (learn).
 */
export class AuditNames {
  readonly #apps = new Map<string, string | undefined>([[LANYARD_APP, 'Lanyard']]);

  private constructor(private readonly clients: ClientRegistry, private readonly classes: Map<string, string>) {}

  static async of(store: Store, clients: ClientRegistry, organisationId: string): Promise<AuditNames> {
    return new AuditNames(clients, new Map((await store.listClasses(organisationId)).map((c) => [c.id, c.title])));
  }

  /** Looks up the apps (client ids) not known yet: those a page of events or of figures names. */
  async learn(clientIds: Iterable<string | undefined>): Promise<void> {
    for (const id of new Set(clientIds)) {
      if (id !== undefined && !this.#apps.has(id)) this.#apps.set(id, (await this.clients.get(id))?.name);
    }
  }

  className = (id: string | undefined): string | undefined => (id === undefined ? undefined : this.classes.get(id));
  appName = (id: string | undefined): string | undefined => (id === undefined ? undefined : this.#apps.get(id));
}

/** The apps a school's trail may name, to filter by: Lanyard itself and the school's connected apps, by name. */
export async function schoolApps(store: Store, clients: ClientRegistry, organisationId: string): Promise<{ clientId: string; name: string }[]> {
  const apps = [];
  for (const c of await store.listConnections(organisationId)) {
    const client = await clients.get(c.clientId);
    apps.push({ clientId: c.clientId, name: client?.name ?? c.clientId });
  }
  return [{ clientId: LANYARD_APP, name: 'Lanyard (its own pages)' }, ...apps.sort((a, b) => a.name.localeCompare(b.name))];
}
