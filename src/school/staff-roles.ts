import type { StaffGrant, StaffRole, User } from '../../adapters/store.js';
import { maySignIn } from '../accounts/account-status.js';
import type { SchoolAccess } from './access.js';
import { type ActionVia, viaDetail } from './action-via.js';
import type { SchoolDeps } from './deps.js';
import { SchoolInputError } from './errors.js';
import { recordPersonChange } from './person-audit.js';

/**
 * Giving and withdrawing staff roles in the console (docs/school-console.md → People and staff): the `admin` and
 * `teacher` grants of the school (the school's staff as a whole: src/accounts/school-staff.ts). Teachers the
 * roster enrols in classes come and go with the roster: nothing to grant or withdraw here. No school admin
 * withdraws their own admin role while no other admin of the school could sign in to take over; every withdrawal
 * of an admin role holds the school's `staff-admins:<school id>` store lock, so two at once cannot both pass.
 */

export const STAFF_ROLES: readonly StaffRole[] = ['admin', 'teacher'];

export const isStaffRole = (value: string): value is StaffRole => (STAFF_ROLES as readonly string[]).includes(value);

/** The person's grants in the school. */
export async function grantsOf(deps: SchoolDeps, school: SchoolAccess, userId: string): Promise<StaffGrant[]> {
  return (await deps.store.listStaffGrants(school.organisation.id)).filter((g) => g.userId === userId);
}

/**
 * The person of the school with this username, to give a role to (the Staff page's form, POST
 * /school/api/…/staff); SchoolInputError naming the `username` field when there is none.
 */
export async function staffCandidate(deps: SchoolDeps, school: SchoolAccess, username: string): Promise<User> {
  const typed = username.trim();
  const user = typed ? await deps.store.findUserByUsername(school.organisation.id, typed) : undefined;
  if (user) return user;
  const message = typed ? `Nobody of this school has the username “${typed}”.` : 'Type their username.';
  throw new SchoolInputError(message, [{ path: 'username', message }]);
}

/** Gives the person the role in the school (source `console`, granted by `actor`); false when they had it. */
export async function grantRole(deps: SchoolDeps, school: SchoolAccess, actor: User, user: User, role: StaffRole, o: ActionVia = {}): Promise<boolean> {
  if ((await grantsOf(deps, school, user.id)).some((g) => g.role === role)) return false;
  await deps.store.putStaffGrant({
    organisationId: school.organisation.id, userId: user.id, role, source: 'console', grantedAt: deps.clock.now().toISOString(), grantedBy: actor.id,
  });
  recordPersonChange(deps, school, actor, user, 'console', 'staff.granted', viaDetail(o, { role }));
  return true;
}

/** Refused: the school admin would leave the school without an admin. */
export const LAST_ADMIN = "You are this school's only admin who can sign in: give another person the admin role before you give up yours.";

/** Refused: another change to the school's admins was being made at that moment. */
export const ADMINS_BUSY = "Another change to this school's admins is being made at this moment: please try again.";

/** The store lock held while a school's admin role is withdrawn: the check for another admin and the withdrawal as one. */
export const adminsLock = (organisationId: string): string => `staff-admins:${organisationId}`;

/** Long enough for the check and the delete; a crashed holder's lock ends by itself. */
const ADMINS_LOCK_TTL_MS = 10_000;

/**
 * Withdraws the person's role (any source); false when they had none. SchoolInputError for the last admin's own,
 * and while another withdrawal of an admin role of the school is under way (ADMINS_BUSY: two admins giving up
 * their own at once must not both see the other and leave the school without one).
 */
export async function revokeRole(deps: SchoolDeps, school: SchoolAccess, actor: User, user: User, role: StaffRole, o: ActionVia = {}): Promise<boolean> {
  if (role !== 'admin') return withdraw(deps, school, actor, user, role, o);
  const key = adminsLock(school.organisation.id);
  const token = await deps.store.tryLock(key, ADMINS_LOCK_TTL_MS);
  if (!token) throw new SchoolInputError(ADMINS_BUSY);
  try {
    if (user.id === actor.id && !(await anotherAdminCanSignIn(deps, school, actor))) throw new SchoolInputError(LAST_ADMIN);
    return await withdraw(deps, school, actor, user, role, o);
  } finally {
    await deps.store.unlock(key, token);
  }
}

async function anotherAdminCanSignIn(deps: SchoolDeps, school: SchoolAccess, actor: User): Promise<boolean> {
  const others = (await deps.store.listStaffGrants(school.organisation.id)).filter((g) => g.role === 'admin' && g.userId !== actor.id);
  const able = await Promise.all(others.map(async (g) => {
    const other = await deps.store.findUser(g.userId);
    return !!other && maySignIn(other);
  }));
  return able.some(Boolean);
}

async function withdraw(deps: SchoolDeps, school: SchoolAccess, actor: User, user: User, role: StaffRole, o: ActionVia): Promise<boolean> {
  if (!(await deps.store.deleteStaffGrant(school.organisation.id, user.id, role))) return false;
  recordPersonChange(deps, school, actor, user, 'console', 'staff.revoked', viaDetail(o, { role }));
  return true;
}
