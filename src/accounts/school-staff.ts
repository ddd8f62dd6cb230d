import type { Organisation, StaffGrantSource, StaffRole, Store, User } from '../../adapters/store.js';
import { compareNoCase } from '../../adapters/store/collation.js';

/** Enrolment roles that make someone a teacher of the class (docs/school-console.md → Who may do what). */
export const TEACHING_ROLES: ReadonlySet<string> = new Set(['teacher', 'aide']);

/** One role a member of staff holds in a school: granted (by whom), or from the classes the roster enrols them in. */
export interface HeldRole {
  role: StaffRole;
  /** Who granted it; `classes` for a teacher the roster enrols as such in classes of the school (not a grant). */
  source: StaffGrantSource | 'classes';
  /** ISO 8601, for a grant. */
  grantedAt?: string | undefined;
  /** The school admin who granted it in the console. */
  grantedBy?: string | undefined;
  /** For `classes`: the ids of the classes they teach there. */
  classIds?: string[] | undefined;
}

export interface StaffPerson {
  user: User;
  /** Grants first (admin, then teacher), then the roster's classes. */
  roles: HeldRole[];
  /** Whether they have turned on two-step sign-in. */
  twoStep: boolean;
}

const ROLE_ORDER: StaffRole[] = ['admin', 'teacher'];

/**
 * Whether the person is a member of staff anywhere: a grant (admin or teacher) in any school, or enrolled to
 * teach (teacher, aide) in any class. A pupil is neither.
 */
export async function isStaffAnywhere(store: Pick<Store, 'userStaffGrants' | 'userEnrolments'>, userId: string): Promise<boolean> {
  const [grants, enrolments] = await Promise.all([store.userStaffGrants(userId), store.userEnrolments(userId)]);
  return grants.length > 0 || enrolments.some((e) => TEACHING_ROLES.has(e.role));
}

/**
 * Whether the person is a member of staff in a school other than `organisationId`: a grant there, or enrolled to
 * teach in a class that is not one of this school's (docs/school-console.md → Who may do what).
 */
export async function isStaffElsewhere(
  store: Pick<Store, 'userStaffGrants' | 'userEnrolments' | 'findClass'>, userId: string, organisationId: string,
): Promise<boolean> {
  const [grants, enrolments] = await Promise.all([store.userStaffGrants(userId), store.userEnrolments(userId)]);
  if (grants.some((g) => g.organisationId !== organisationId)) return true;
  for (const e of enrolments.filter((x) => TEACHING_ROLES.has(x.role))) {
    // By its id, not a sourcedId that happens to be the same: a class of this school, or of another.
    if ((await store.findClass(organisationId, e.classId))?.id !== e.classId) return true;
  }
  return false;
}

/**
 * The school's staff (docs/school-console.md → Who may do what): everyone with a grant there, and everyone the
 * roster enrols to teach one of its classes, by username, each with every role they hold and where it comes from.
 */
export async function schoolStaff(store: Store, organisation: Organisation): Promise<StaffPerson[]> {
  const [grants, enrolments] = await Promise.all([store.listStaffGrants(organisation.id), store.organisationEnrolments(organisation.id)]);
  const roles = new Map<string, HeldRole[]>();
  const add = (userId: string, role: HeldRole) => roles.set(userId, [...(roles.get(userId) ?? []), role]);
  for (const role of ROLE_ORDER) {
    for (const g of grants.filter((x) => x.role === role)) add(g.userId, { role, source: g.source, grantedAt: g.grantedAt, grantedBy: g.grantedBy });
  }
  const taught = new Map<string, string[]>();
  for (const e of enrolments) if (TEACHING_ROLES.has(e.role)) taught.set(e.userId, [...new Set([...(taught.get(e.userId) ?? []), e.classId])]);
  for (const [userId, classIds] of taught) add(userId, { role: 'teacher', source: 'classes', classIds });

  const people = await Promise.all([...roles].map(async ([userId, held]) => {
    const [user, factor] = await Promise.all([store.findUser(userId), store.getStaffSecondFactor(userId)]);
    return user && { user, roles: held, twoStep: factor !== undefined };
  }));
  return people.filter((p): p is StaffPerson => p !== undefined)
    .sort((a, b) => compareNoCase(a.user.username, b.user.username) || compareNoCase(a.user.id, b.user.id));
}
