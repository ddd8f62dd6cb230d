import type { Organisation, RosterClass, Store, User } from '../../adapters/store.js';

/** The organisation and (optionally) one of its users, or a clear error for the command line. */
export async function findTargets(store: Store, slug: string, username?: string): Promise<{ organisation: Organisation; user?: User }> {
  const organisation = await store.findOrganisation(slug);
  if (!organisation) throw new Error(`no organisation "${slug}"`);
  if (username === undefined) return { organisation };
  const user = await store.findUserByUsername(organisation.id, username);
  if (!user) throw new Error(`no user "${username}" in ${organisation.name}`);
  return { organisation, user };
}

/** A class of the organisation by its Lanyard id or its sourcedId, or a clear error for the command line. */
export async function findClassTarget(store: Store, organisation: Organisation, ref: string): Promise<RosterClass> {
  const found = await store.findClass(organisation.id, ref);
  if (!found) throw new Error(`no class "${ref}" in ${organisation.name} (lanyard classes list --org ${organisation.slug} lists them)`);
  return found;
}
