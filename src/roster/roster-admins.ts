import type { Organisation, StaffGrant, Store } from '../../adapters/store.js';
import type { RosterAdmins } from './plan/plan-types.js';

/** The admin grants an import puts and withdraws to keep the roster's school admins in step. */
export interface AdminChanges {
  put: StaffGrant[];
  remove: StaffGrant[];
}

const key = (organisationId: string, userId: string) => `${organisationId} ${userId}`;

/**
 * What keeps the grants of source `roster` in step with the files (docs/rostering.md → School admins): a person
 * the files make an administrator of a school gets an `admin` grant there (unless they hold one already, made
 * any way); a roster grant goes when its person leaves, when the files give the person's roles without
 * administrator there, or when the files list the school's whole staff (a bulk users file) without them.
 * Grants made by the configuration file, in the console or by the operator are never touched. Reads the
 * grants of the schools concerned only (those the import covers, and those the files name administrators of).
 */
export async function planAdminGrants(store: Store, admins: RosterAdmins, covered: Organisation[], now: string): Promise<AdminChanges> {
  const wanted = new Set(admins.people.flatMap((p) => p.organisationIds.map((o) => key(o, p.userId))));
  const decided = new Set(admins.people.map((p) => p.userId));
  const leaving = new Set(admins.leaving);
  const whole = new Set(admins.whole);
  const schools = [...new Set([...covered.map((o) => o.id), ...admins.whole, ...admins.people.flatMap((p) => p.organisationIds)])].sort();
  const grants = (await Promise.all(schools.map((o) => store.listStaffGrants(o)))).flat().filter((g) => g.role === 'admin');
  const held = new Set(grants.map((g) => key(g.organisationId, g.userId)));

  const remove = grants.filter((g) => g.source === 'roster' && !wanted.has(key(g.organisationId, g.userId))
    && (leaving.has(g.userId) || decided.has(g.userId) || whole.has(g.organisationId)));
  const put: StaffGrant[] = admins.people.flatMap((p) => p.organisationIds
    .filter((o) => !held.has(key(o, p.userId)) && !leaving.has(p.userId))
    .map((organisationId): StaffGrant => ({ organisationId, userId: p.userId, role: 'admin', source: 'roster', grantedAt: now })));
  return { put, remove };
}

/** Writes the changes: grants first, then withdrawals. */
export async function applyAdminGrants(store: Store, changes: AdminChanges): Promise<void> {
  for (const g of changes.put) await store.putStaffGrant(g);
  for (const g of changes.remove) await store.deleteStaffGrant(g.organisationId, g.userId, g.role);
}

/** A note for the import's summary naming who becomes or stops being a school admin, or undefined when no one does. */
export async function adminNote(store: Store, admins: RosterAdmins, changes: AdminChanges, slugOf: (id: string) => string): Promise<string | undefined> {
  if (!changes.put.length && !changes.remove.length) return undefined;
  const usernames = new Map(admins.people.map((p) => [p.userId, p.username]));
  const name = async (g: StaffGrant) => `${usernames.get(g.userId) ?? (await store.findUser(g.userId))?.username ?? g.userId} (${slugOf(g.organisationId)})`;
  const list = async (gs: StaffGrant[]) => (await Promise.all(gs.map(name))).join(', ');
  const parts = [
    changes.put.length ? `now ${await list(changes.put)}` : '',
    changes.remove.length ? `no longer ${await list(changes.remove)}` : '',
  ].filter(Boolean);
  return `school admins by the roster's administrator role: ${parts.join('; ')}`;
}
