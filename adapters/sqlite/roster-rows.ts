import type { AcademicSession, Enrolment, RosterClass, RosterImportRun } from '../store.js';

/** Row shapes of the roster's tables (migrations/010-roster.ts), their mapping to the store's types and back. */

export interface AcademicSessionRow {
  id: string; organisation_id: string; sourced_id: string; title: string; type: string; start_date: string | null;
  end_date: string | null; parent_sourced_id: string | null; school_year: string | null;
}

export const toAcademicSession = (r: AcademicSessionRow): AcademicSession => ({
  id: r.id,
  organisationId: r.organisation_id,
  sourcedId: r.sourced_id,
  title: r.title,
  type: r.type,
  startDate: r.start_date ?? undefined,
  endDate: r.end_date ?? undefined,
  parentSourcedId: r.parent_sourced_id ?? undefined,
  schoolYear: r.school_year ?? undefined,
});

export const academicSessionRow = (s: AcademicSession): AcademicSessionRow => ({
  id: s.id, organisation_id: s.organisationId, sourced_id: s.sourcedId, title: s.title, type: s.type,
  start_date: s.startDate ?? null, end_date: s.endDate ?? null, parent_sourced_id: s.parentSourcedId ?? null,
  school_year: s.schoolYear ?? null,
});

export const ACADEMIC_SESSION_UPSERT_SQL = `INSERT INTO academic_sessions (id, organisation_id, sourced_id, title, type,
  start_date, end_date, parent_sourced_id, school_year) VALUES (@id, @organisation_id, @sourced_id, @title, @type,
  @start_date, @end_date, @parent_sourced_id, @school_year)
  ON CONFLICT (id) DO UPDATE SET organisation_id = excluded.organisation_id, sourced_id = excluded.sourced_id,
  title = excluded.title, type = excluded.type, start_date = excluded.start_date, end_date = excluded.end_date,
  parent_sourced_id = excluded.parent_sourced_id, school_year = excluded.school_year`;

export interface ClassRow {
  id: string; organisation_id: string; sourced_id: string; title: string; class_code: string | null;
  class_type: string | null; course_sourced_id: string | null; course_title: string | null; course_code: string | null;
  location: string | null; grades: string; subjects: string; periods: string; academic_session_ids: string;
}

export const toClass = (r: ClassRow): RosterClass => ({
  id: r.id,
  organisationId: r.organisation_id,
  sourcedId: r.sourced_id,
  title: r.title,
  classCode: r.class_code ?? undefined,
  classType: r.class_type ?? undefined,
  courseSourcedId: r.course_sourced_id ?? undefined,
  courseTitle: r.course_title ?? undefined,
  courseCode: r.course_code ?? undefined,
  location: r.location ?? undefined,
  grades: JSON.parse(r.grades) as string[],
  subjects: JSON.parse(r.subjects) as string[],
  periods: JSON.parse(r.periods) as string[],
  academicSessionIds: JSON.parse(r.academic_session_ids) as string[],
});

export const classRow = (c: RosterClass): ClassRow => ({
  id: c.id, organisation_id: c.organisationId, sourced_id: c.sourcedId, title: c.title, class_code: c.classCode ?? null,
  class_type: c.classType ?? null, course_sourced_id: c.courseSourcedId ?? null, course_title: c.courseTitle ?? null,
  course_code: c.courseCode ?? null, location: c.location ?? null, grades: JSON.stringify(c.grades),
  subjects: JSON.stringify(c.subjects), periods: JSON.stringify(c.periods), academic_session_ids: JSON.stringify(c.academicSessionIds),
});

export const CLASS_UPSERT_SQL = `INSERT INTO classes (id, organisation_id, sourced_id, title, class_code, class_type,
  course_sourced_id, course_title, course_code, location, grades, subjects, periods, academic_session_ids)
  VALUES (@id, @organisation_id, @sourced_id, @title, @class_code, @class_type, @course_sourced_id, @course_title,
  @course_code, @location, @grades, @subjects, @periods, @academic_session_ids)
  ON CONFLICT (id) DO UPDATE SET organisation_id = excluded.organisation_id, sourced_id = excluded.sourced_id,
  title = excluded.title, class_code = excluded.class_code, class_type = excluded.class_type,
  course_sourced_id = excluded.course_sourced_id, course_title = excluded.course_title, course_code = excluded.course_code,
  location = excluded.location, grades = excluded.grades, subjects = excluded.subjects, periods = excluded.periods,
  academic_session_ids = excluded.academic_session_ids`;

export interface EnrolmentRow {
  class_id: string; user_id: string; role: string; is_primary: number; sourced_id: string | null;
  begin_date: string | null; end_date: string | null;
}

export const toEnrolment = (r: EnrolmentRow): Enrolment => ({
  classId: r.class_id,
  userId: r.user_id,
  role: r.role,
  primary: r.is_primary === 1,
  sourcedId: r.sourced_id ?? undefined,
  beginDate: r.begin_date ?? undefined,
  endDate: r.end_date ?? undefined,
});

export const enrolmentRow = (e: Enrolment): EnrolmentRow => ({
  class_id: e.classId, user_id: e.userId, role: e.role, is_primary: e.primary ? 1 : 0, sourced_id: e.sourcedId ?? null,
  begin_date: e.beginDate ?? null, end_date: e.endDate ?? null,
});

export const ENROLMENT_UPSERT_SQL = `INSERT INTO enrolments (class_id, user_id, role, is_primary, sourced_id, begin_date, end_date)
  VALUES (@class_id, @user_id, @role, @is_primary, @sourced_id, @begin_date, @end_date)
  ON CONFLICT (class_id, user_id) DO UPDATE SET role = excluded.role, is_primary = excluded.is_primary,
  sourced_id = excluded.sourced_id, begin_date = excluded.begin_date, end_date = excluded.end_date`;

export const MEMBERSHIP_INSERT_SQL = `INSERT OR IGNORE INTO memberships (user_id, organisation_id, role)
  VALUES (@userId, @organisationId, @role)`;

export const MEMBERSHIP_COLUMNS = 'user_id AS userId, organisation_id AS organisationId, role';

export interface RosterImportRow {
  id: string; at: string; by: string; format: string; digest: string; organisations: string; counts: string;
}

export const toRosterImport = (r: RosterImportRow): RosterImportRun => ({
  id: r.id,
  at: r.at,
  by: r.by,
  format: r.format,
  digest: r.digest,
  organisations: JSON.parse(r.organisations) as string[],
  counts: JSON.parse(r.counts) as RosterImportRun['counts'],
});

export const rosterImportRow = (run: RosterImportRun): RosterImportRow => ({
  id: run.id, at: run.at, by: run.by, format: run.format, digest: run.digest,
  organisations: JSON.stringify(run.organisations), counts: JSON.stringify(run.counts),
});

export const ROSTER_IMPORT_UPSERT_SQL = `INSERT OR REPLACE INTO roster_imports (id, at, by, format, digest, organisations, counts)
  VALUES (@id, @at, @by, @format, @digest, @organisations, @counts)`;

export const SIGN_IN_UPSERT_SQL = `INSERT INTO user_sign_ins (user_id, at) SELECT id, @at FROM users WHERE id = @userId
  ON CONFLICT (user_id) DO UPDATE SET at = excluded.at`;
