/**
 * A roster as read from the school's files, before it is compared with the store: what every reader
 * (OneRoster 1.1 / 1.2 CSV, the one-file CSV) produces and the planner consumes. Field values are trimmed;
 * an empty optional column is undefined. Nothing here knows Lanyard's ids.
 */

/** The kinds of record a roster carries, in the order they are read and applied. */
export const SOURCE_KINDS = ['orgs', 'academicSessions', 'courses', 'classes', 'users', 'enrollments'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/**
 * How a file speaks for its kind (OneRoster manifest `file.X`): `bulk` is everything (a record in Lanyard and
 * absent here is leaving), `delta` lists changes only (`status` tobedeleted removes), `absent`: not in this export.
 */
export type SourceMode = 'bulk' | 'delta' | 'absent';

/** Where a record (or a problem) is: the file's name as in the export, its 1-based line, the column's header. */
export interface SourcePlace {
  file: string;
  line: number;
}

/** A problem in the files: nothing is applied while there is one. */
export interface SourceError {
  file: string;
  /** 1-based; 0 for the file as a whole. */
  line: number;
  /** The column's header; '' for the row or file as a whole. */
  column: string;
  /** The offending value, when there is one (never a password). */
  value?: string;
  message: string;
}

/** Every record carries these. `status` is `active` unless a delta file says `tobedeleted`. */
interface SourceRecord {
  sourcedId: string;
  status: 'active' | 'tobedeleted';
  /** ISO 8601 `dateLastModified`, when given. */
  modifiedAt?: string | undefined;
  at: SourcePlace;
}

export interface SourceOrg extends SourceRecord {
  name: string;
  /** school, district, local, state, national, department (as given, lower case). */
  type: string;
  identifier?: string | undefined;
  parentSourcedId?: string | undefined;
}

export interface SourceAcademicSession extends SourceRecord {
  title: string;
  type: string;
  startDate?: string | undefined;
  endDate?: string | undefined;
  parentSourcedId?: string | undefined;
  schoolYear?: string | undefined;
}

export interface SourceCourse extends SourceRecord {
  title: string;
  courseCode?: string | undefined;
  orgSourcedId?: string | undefined;
  grades: string[];
  subjects: string[];
}

export interface SourceClass extends SourceRecord {
  title: string;
  classCode?: string | undefined;
  classType?: string | undefined;
  location?: string | undefined;
  courseSourcedId?: string | undefined;
  schoolSourcedId: string;
  termSourcedIds: string[];
  grades: string[];
  subjects: string[];
  periods: string[];
}

/** A person's role at one school (OneRoster 1.2 `roles`; in 1.1, the one `role` at each of `orgSourcedIds`). */
export interface SourceRole {
  orgSourcedId: string;
  /** student, teacher, administrator, aide, guardian, parent, relative, proctor… (lower case). */
  role: string;
  /** primary or secondary (1.2 `roleType`); the person's own school is the first primary one. */
  primary: boolean;
}

export interface SourceUser extends SourceRecord {
  username: string;
  givenName: string;
  familyName: string;
  middleName?: string | undefined;
  email?: string | undefined;
  identifier?: string | undefined;
  /** OneRoster `enabledUser`; false holds the account (no sign-in). */
  enabled: boolean;
  /** At least one for an active record; the person's own school first. */
  roles: SourceRole[];
  grades: string[];
  /**
   * Other columns a school may choose to fill `roster_id` from (e.g. `identifier`, a 1.2 `userIds` entry),
   * by header name. `sourcedId` is always available.
   */
  extra: Record<string, string>;
  /** One-file CSV only: the SPEC `type` given directly (otherwise derived from the role). */
  type?: string | undefined;
}

export interface SourceEnrollment extends SourceRecord {
  classSourcedId: string;
  schoolSourcedId?: string | undefined;
  userSourcedId: string;
  role: string;
  primary: boolean;
  beginDate?: string | undefined;
  endDate?: string | undefined;
}

/** Everything read from one export. */
export interface RosterSource {
  format: 'oneroster-1.1' | 'oneroster-1.2' | 'one-file';
  modes: Record<SourceKind, SourceMode>;
  orgs: SourceOrg[];
  academicSessions: SourceAcademicSession[];
  courses: SourceCourse[];
  classes: SourceClass[];
  users: SourceUser[];
  enrollments: SourceEnrollment[];
  /** Things worth knowing that stop nothing: "demographics.csv is not read". */
  notes: string[];
  errors: SourceError[];
  /** sha256 (hex) over the files read, in name order (names and bytes). */
  digest: string;
}

/**
 * Progress while reading, for the terminal: the file, rows read so far, and bytes read of the file's size
 * (`total` undefined where the size is not known beforehand: a file given as a stream).
 */
export type ReadProgress = (file: string, rows: number, done: boolean, bytes?: { read: number; total: number | undefined }) => void;
