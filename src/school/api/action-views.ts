import type { StaffPerson } from '../../accounts/school-staff.js';
import type { User } from '../../../adapters/store.js';
import type { ListedHelpCode } from '../views/help-code-pages.js';

/** /school/api's JSON of help codes and staff (action-schemas.ts): snake_case, absent values left out. */

const person = (u: User) => ({ user_id: u.id, username: u.username, given_name: u.givenName, family_name: u.familyName });

export const helpCodeJson = (c: ListedHelpCode) => ({ ...person(c.pupil), issued_by: c.issuedBy, expires_at: c.expiresAt.toISOString() });

export const staffPersonJson = (p: StaffPerson) => ({
  ...person(p.user),
  two_step: p.twoStep,
  roles: p.roles.map((r) => ({
    role: r.role, source: r.source,
    ...(r.grantedAt ? { granted_at: r.grantedAt } : {}), ...(r.grantedBy ? { granted_by: r.grantedBy } : {}), ...(r.classIds ? { class_ids: r.classIds } : {}),
  })),
});
