import type { Organisation, User } from './directory.js';

/**
 * The school's roster as its information system exports it (OneRoster, or the one-file CSV): academic sessions,
 * classes, who teaches and attends them, and which further schools a person belongs to. Written by `lanyard
 * roster import` as one all-or-nothing change (applyRoster); read by the planner (rosterSnapshot), the CLI and
 * the console. Every record is matched to the source by its `sourcedId`, unique within its organisation.
 */

/** A school year, semester, term or grading period. */
export interface AcademicSession {
  id: string;
  organisationId: string;
  sourcedId: string;
  title: string;
  /** OneRoster's sessionType: schoolYear, semester, term, gradingPeriod (kept as given). */
  type: string;
  /** ISO dates (YYYY-MM-DD), as given. */
  startDate?: string | undefined;
  endDate?: string | undefined;
  /** The sourcedId of the enclosing session (a term's school year). */
  parentSourcedId?: string | undefined;
  schoolYear?: string | undefined;
}

/** A class: a group of pupils taught together (a homeroom or a scheduled lesson). */
export interface RosterClass {
  id: string;
  organisationId: string;
  sourcedId: string;
  title: string;
  classCode?: string | undefined;
  /** homeroom or scheduled (as given). */
  classType?: string | undefined;
  courseSourcedId?: string | undefined;
  courseTitle?: string | undefined;
  courseCode?: string | undefined;
  location?: string | undefined;
  grades: string[];
  subjects: string[];
  periods: string[];
  /** sourcedIds of the academic sessions (terms) the class runs in. */
  academicSessionIds: string[];
}

/** One person in one class, in one role. A person has at most one enrolment per class. */
export interface Enrolment {
  classId: string;
  userId: string;
  /** teacher, student, aide, administrator, proctor, guardian… (OneRoster's role, lower case). */
  role: string;
  /** The class's main teacher. */
  primary: boolean;
  sourcedId?: string | undefined;
  /** ISO dates, as given. */
  beginDate?: string | undefined;
  endDate?: string | undefined;
}

/** A person who also belongs to a school other than their own (User.organisationId), in a role there. */
export interface Membership {
  userId: string;
  organisationId: string;
  role: string;
}

/** A class as `lanyard classes list` and the console show it. */
export interface ClassSummary extends RosterClass {
  teachers: { userId: string; givenName: string; familyName: string }[];
  pupils: number;
}

/** One applied import: who ran it, when, what it read and what it changed. */
export interface RosterImportRun {
  id: string;
  /** ISO 8601. */
  at: string;
  /** Who ran it: `cli:<os user>`, `console:<username>` (a school admin in the console), `api:<username>` (through the school API). */
  by: string;
  /** What was read: `oneroster-1.1`, `oneroster-1.2`, `one-file`. */
  format: string;
  /** sha256 (hex) over the files read, in name order. */
  digest: string;
  /** Slugs of the organisations the import covered. */
  organisations: string[];
  /** Per kind: added, changed, unchanged, leaving. */
  counts: Record<string, { added: number; changed: number; unchanged: number; leaving: number }>;
}

/**
 * The roster fields a user record carries: all an import writes to a user, and only the fields the roster owns.
 * Never credentials, holds, or the matched Google and Microsoft accounts (`lanyard import` and sign-ins own
 * those: an import never writes them back from its snapshot, so a change made meanwhile stays).
 */
export type RosterUser = Pick<User, 'id' | 'organisationId' | 'username' | 'givenName' | 'familyName' | 'type' | 'email'
  | 'rosterId' | 'sourceId'>;

/** Everything one import changes, written all or nothing (RosterStore.applyRoster). */
export interface RosterChanges {
  /** New organisations (id chosen by the caller: newId('o')) and updated ones (by id). */
  organisations: (Pick<Organisation, 'id' | 'slug' | 'name'> & { sourceId?: string | undefined })[];
  /**
   * New users (id chosen by the caller: newId('u'); a taken or retired id fails the whole change with a
   * 409 LanyardError) and updated ones, by id: every RosterUser field is written as given (undefined clears).
   * Suspension, holds, sessionsValidAfter, credentials, badges and matched accounts (googleEmail,
   * microsoftEmail) are not touched; a new user has none.
   */
  users: RosterUser[];
  /**
   * Holds set or lifted by the roster (User.rosterHold). Setting one ends the user's sessions (as endSessions);
   * `left` also voids their badges. `undefined` lifts it (nothing else changes).
   */
  holds: { userId: string; hold: 'left' | 'disabled' | undefined; at: string }[];
  memberships: { put: Membership[]; remove: Membership[] };
  academicSessions: { put: AcademicSession[]; remove: string[] };
  /** Removing a class removes its enrolments. */
  classes: { put: RosterClass[]; remove: string[] };
  enrolments: { put: Enrolment[]; remove: { classId: string; userId: string }[] };
  /** Recorded in the same step. */
  run: RosterImportRun;
}

/** What the planner compares a source with: the roster records of some organisations, as stored. */
export interface RosterSnapshot {
  /** Users whose own organisation is one of these, holds included. */
  users: User[];
  memberships: Membership[];
  academicSessions: AcademicSession[];
  classes: RosterClass[];
  enrolments: Enrolment[];
}

export interface RosterStore {
  rosterSnapshot(organisationIds: string[]): Promise<RosterSnapshot>;
  /** Writes every change or none (SQLite: one transaction; Redis: one MULTI/EXEC). */
  applyRoster(changes: RosterChanges): Promise<void>;
  /** The organisation's classes with their teachers and pupil counts, by title then sourcedId. */
  listClasses(organisationId: string): Promise<ClassSummary[]>;
  /** A class of the organisation by Lanyard id or sourcedId. */
  findClass(organisationId: string, idOrSourcedId: string): Promise<RosterClass | undefined>;
  /** A class's enrolments. */
  classEnrolments(classId: string): Promise<Enrolment[]>;
  /** Every enrolment in the organisation's classes (for listing users with their classes). */
  organisationEnrolments(organisationId: string): Promise<Enrolment[]>;
  /** The user's enrolments in every class (the console's teacher of which classes), by class. */
  userEnrolments(userId: string): Promise<Enrolment[]>;
  listAcademicSessions(organisationId: string): Promise<AcademicSession[]>;
  /** The schools a user belongs to besides their own. */
  userMemberships(userId: string): Promise<Membership[]>;
  /** Remembers a successful sign-in (one cheap write; not in the User record). */
  recordSignIn(userId: string, at: string): Promise<void>;
  /** Last successful sign-in of each user of the organisation who ever signed in (ISO 8601). */
  lastSignIns(organisationId: string): Promise<Map<string, string>>;
  /** Applied imports, newest first, at most `limit`. */
  listRosterImports(limit: number): Promise<RosterImportRun[]>;
  /** Users (of any organisation) who left (rosterHold left) at or before `before` (ISO 8601). */
  leaversBefore(before: string): Promise<User[]>;
}
