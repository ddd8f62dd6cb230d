import { words } from './values.js';

/**
 * The vocabularies of OneRoster's CSV binding that a reader checks (1EdTech OneRoster 1.1 and 1.2, CSV
 * binding, "Enumerations"). A value is matched without regard to case and kept as spelled here; `ext:…`
 * extensions pass as given.
 */

export type OneRosterVersion = '1.1' | '1.2';

/** 1.1 users' `role` and enrollments' `role` (RoleType). */
const ROLES_1_1 = words('administrator', 'aide', 'guardian', 'parent', 'proctor', 'relative', 'student', 'teacher');

/** 1.2 roles.csv `role` (RoleEnum). */
const ROLES_1_2 = words('aide', 'counselor', 'districtAdministrator', 'guardian', 'parent', 'principal', 'proctor',
  'relative', 'siteAdministrator', 'student', 'systemAdministrator', 'teacher');

/** 1.2 enrollments' `role` (EnrolRoleEnum). */
const ENROLLMENT_ROLES_1_2 = words('administrator', 'proctor', 'student', 'teacher');

export const userRoles = (version: OneRosterVersion) => (version === '1.1' ? ROLES_1_1 : ROLES_1_2);
export const enrollmentRoles = (version: OneRosterVersion) => (version === '1.1' ? ROLES_1_1 : ENROLLMENT_ROLES_1_2);

/** 1.2 roles.csv `roleType`. */
export const ROLE_TYPES = words('primary', 'secondary');

/** orgs' `type` (OrgType; kept in lower case). */
export const ORG_TYPES = words('department', 'school', 'district', 'local', 'state', 'national');

/** academicSessions' `type` (SessionType). */
export const SESSION_TYPES = words('gradingPeriod', 'semester', 'schoolYear', 'term');

/** A list of a vocabulary's spellings, for a message. */
export const spelled = (vocabulary: ReadonlyMap<string, string>): string => [...vocabulary.values()].join(', ');
