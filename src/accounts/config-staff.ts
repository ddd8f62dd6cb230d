import type { StaffGrant, StaffRole, Store } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { OrganisationSeed } from '../config/schema.js';

/**
 * Writes the configuration file's `organisations[].users[].staff_roles` into the store at startup
 * (docs/school-console.md → Who may do what): each listed role is a grant with source `config`; a grant the
 * file made before and no longer lists is withdrawn. Grants made in the console, by the operator or by the
 * roster are left alone, and a role already granted another way stays as it was. Runs after the file's
 * organisations and users are written.
 */
export async function syncConfigStaff(store: Store, organisations: OrganisationSeed[], clock: Clock): Promise<void> {
  const now = clock.now().toISOString();
  for (const seed of organisations) {
    const organisation = await store.findOrganisation(seed.slug);
    if (!organisation) continue;
    const existing = await store.listStaffGrants(organisation.id);
    const key = (userId: string, role: StaffRole) => `${userId} ${role}`;
    const held = new Map<string, StaffGrant>(existing.map((g) => [key(g.userId, g.role), g]));
    const wanted = new Set<string>();
    for (const u of seed.users ?? []) {
      if (!u.staff_roles?.length) continue;
      const user = await store.findUserByUsername(organisation.id, u.username);
      if (!user) continue;
      for (const role of u.staff_roles) {
        wanted.add(key(user.id, role));
        if (!held.has(key(user.id, role))) await store.putStaffGrant({ organisationId: organisation.id, userId: user.id, role, source: 'config', grantedAt: now });
      }
    }
    for (const g of existing) {
      if (g.source === 'config' && !wanted.has(key(g.userId, g.role))) await store.deleteStaffGrant(g.organisationId, g.userId, g.role);
    }
  }
}
