/**
 * Migration 10: the school's roster (adapters/store/roster.ts). Users get the person's id in the school's
 * information system (unique in the organisation where given) and the roster's hold; organisations get the
 * school's id there. Academic sessions and classes are unique by (organisation, sourced id); a class's lists
 * (grades, subjects, periods, sessions) are JSON text. Enrolments are one per person and class, memberships
 * one per person, school and role. Each applied import is a row (its counts JSON); the last successful
 * sign-in of each user is a row of its own, so that recording one never rewrites the user.
 */
export const ROSTER = `
ALTER TABLE users ADD COLUMN source_id TEXT;
ALTER TABLE users ADD COLUMN roster_hold TEXT;
ALTER TABLE users ADD COLUMN roster_hold_since TEXT;
CREATE UNIQUE INDEX users_source_id ON users (organisation_id, source_id) WHERE source_id IS NOT NULL;
CREATE INDEX users_roster_left ON users (roster_hold_since) WHERE roster_hold = 'left';
ALTER TABLE organisations ADD COLUMN source_id TEXT;
CREATE TABLE academic_sessions (
  id TEXT PRIMARY KEY, organisation_id TEXT NOT NULL REFERENCES organisations (id), sourced_id TEXT NOT NULL,
  title TEXT NOT NULL, type TEXT NOT NULL, start_date TEXT, end_date TEXT, parent_sourced_id TEXT, school_year TEXT,
  UNIQUE (organisation_id, sourced_id)
);
CREATE TABLE classes (
  id TEXT PRIMARY KEY, organisation_id TEXT NOT NULL REFERENCES organisations (id), sourced_id TEXT NOT NULL,
  title TEXT NOT NULL, class_code TEXT, class_type TEXT, course_sourced_id TEXT, course_title TEXT, course_code TEXT,
  location TEXT, grades TEXT NOT NULL, subjects TEXT NOT NULL, periods TEXT NOT NULL, academic_session_ids TEXT NOT NULL,
  UNIQUE (organisation_id, sourced_id)
);
CREATE TABLE enrolments (
  class_id TEXT NOT NULL REFERENCES classes (id), user_id TEXT NOT NULL REFERENCES users (id), role TEXT NOT NULL,
  is_primary INTEGER NOT NULL, sourced_id TEXT, begin_date TEXT, end_date TEXT,
  PRIMARY KEY (class_id, user_id)
) WITHOUT ROWID;
CREATE INDEX enrolments_user ON enrolments (user_id);
CREATE TABLE memberships (
  user_id TEXT NOT NULL REFERENCES users (id), organisation_id TEXT NOT NULL REFERENCES organisations (id),
  role TEXT NOT NULL,
  PRIMARY KEY (user_id, organisation_id, role)
) WITHOUT ROWID;
CREATE INDEX memberships_organisation ON memberships (organisation_id);
CREATE TABLE roster_imports (
  id TEXT PRIMARY KEY, at TEXT NOT NULL, by TEXT NOT NULL, format TEXT NOT NULL, digest TEXT NOT NULL,
  organisations TEXT NOT NULL, counts TEXT NOT NULL
);
CREATE INDEX roster_imports_at ON roster_imports (at, id);
CREATE TABLE user_sign_ins (user_id TEXT PRIMARY KEY REFERENCES users (id), at TEXT NOT NULL) WITHOUT ROWID;
`;
