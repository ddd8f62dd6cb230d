import type { RosterClass, Store, User } from '../../adapters/store.js';
import { compareNoCase } from '../../adapters/store/collation.js';
import { TEACHING_ROLES } from './school-staff.js';

/**
 * Which classes a member of staff may give a classroom device of `organisationId` (docs/childrens-sign-in.md →
 * Class sign-in), by the school console's rules (docs/school-console.md → Who may do what): a school admin
 * there, every class of the school; a teacher, the school's classes they are enrolled to teach (teacher, aide).
 * Anyone else, none. By title.
 */
export async function classesForDevice(
  store: Pick<Store, 'userStaffGrants' | 'userEnrolments' | 'listClasses' | 'findClass'>, user: User, organisationId: string,
): Promise<RosterClass[]> {
  const [grants, enrolments] = await Promise.all([store.userStaffGrants(user.id), store.userEnrolments(user.id)]);
  if (grants.some((g) => g.organisationId === organisationId && g.role === 'admin')) return store.listClasses(organisationId);
  const teaching = enrolments.filter((e) => TEACHING_ROLES.has(e.role)).map((e) => e.classId);
  const found = await Promise.all(teaching.map((id) => store.findClass(organisationId, id)));
  // By its id: a class of this school, never another school's whose sourcedId happens to match.
  const mine = found.filter((c, i): c is RosterClass => !!c && c.id === teaching[i]);
  return mine.sort((a, b) => compareNoCase(a.title, b.title) || compareNoCase(a.sourcedId, b.sourcedId));
}
