import type { User } from '../../adapters/store.js';
import { signOutEverywhere } from '../accounts/user-admin.js';
import { personOf, type SchoolAccess } from './access.js';
import type { SchoolDeps } from './deps.js';
import { type ActionVia, viaDetail } from './action-via.js';
import { recordPersonChange } from './person-audit.js';

/**
 * Signs a person of the school out everywhere (docs/school-console.md → The school API): every Lanyard session
 * ends and what apps were given is revoked, as `lanyard users signout` does (src/accounts/user-admin.ts). A
 * teacher may for their classes' pupils, an admin for anyone of the school (access.ts personOf: anyone else
 * is a 404). Recorded in the school's audit trail with who did it (and the class, when done for a class).
 */
export async function signPersonOut(deps: SchoolDeps, school: SchoolAccess, actor: User, userId: string, o: ActionVia & { classId?: string | undefined } = {}): Promise<User> {
  const person = await personOf(deps.store, school, userId);
  await signOutEverywhere(deps.store, person);
  recordPersonChange(deps, school, actor, person, 'console', 'user.signed_out', { classId: o.classId, ...viaDetail(o) });
  return person;
}
