import type Database from 'better-sqlite3';
import type { Membership, RosterImportRun, RosterStore } from '../store.js';
import { ROSTER_ORDER, summariseClasses } from '../store/roster-order.js';
import { type UserRow, toUser } from './rows.js';
import { sqliteRosterWriter } from './roster-apply.js';
import {
  type AcademicSessionRow, type ClassRow, type EnrolmentRow, MEMBERSHIP_COLUMNS, type RosterImportRow, SIGN_IN_UPSERT_SQL,
  toAcademicSession, toClass, toEnrolment, toRosterImport,
} from './roster-rows.js';
import type { WriteBatch } from './write-batch.js';

type TeacherRow = { classId: string; userId: string; primary: number; givenName: string; familyName: string };

/** The roster in SQLite (migrations/010-roster.ts); applyRoster runs in the write batch, as it ends sessions. */
export function sqliteRoster(db: Database.Database, batch: WriteBatch): RosterStore {
  const q = {
    usersOfOrg: db.prepare('SELECT * FROM users WHERE organisation_id = ?'),
    sessionsOfOrg: db.prepare('SELECT * FROM academic_sessions WHERE organisation_id = ?'),
    classesOfOrg: db.prepare('SELECT * FROM classes WHERE organisation_id = ?'),
    enrolmentsOfOrg: db.prepare('SELECT e.* FROM classes c JOIN enrolments e ON e.class_id = c.id WHERE c.organisation_id = ?'),
    membershipsOfOrgUsers: db.prepare(`SELECT m.user_id AS userId, m.organisation_id AS organisationId, m.role
      FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.organisation_id = ?`),
    membershipsInOrg: db.prepare(`SELECT ${MEMBERSHIP_COLUMNS} FROM memberships WHERE organisation_id = ?`),
    membershipsOfUser: db.prepare(`SELECT ${MEMBERSHIP_COLUMNS} FROM memberships WHERE user_id = ?`),
    classById: db.prepare('SELECT * FROM classes WHERE id = ? AND organisation_id = ?'),
    classBySourcedId: db.prepare('SELECT * FROM classes WHERE organisation_id = ? AND sourced_id = ?'),
    classEnrolments: db.prepare('SELECT * FROM enrolments WHERE class_id = ?'),
    userEnrolments: db.prepare('SELECT * FROM enrolments WHERE user_id = ?'),
    teachersOfOrg: db.prepare(`SELECT e.class_id AS classId, e.user_id AS userId, e.is_primary AS "primary",
      u.given_name AS givenName, u.family_name AS familyName
      FROM classes c JOIN enrolments e ON e.class_id = c.id JOIN users u ON u.id = e.user_id
      WHERE c.organisation_id = ? AND e.role = 'teacher'`),
    pupilsOfOrg: db.prepare(`SELECT e.class_id AS classId FROM classes c JOIN enrolments e ON e.class_id = c.id
      WHERE c.organisation_id = ? AND e.role = 'student'`),
    signIn: db.prepare(SIGN_IN_UPSERT_SQL),
    lastSignIns: db.prepare(`SELECT s.user_id AS userId, s.at FROM users u JOIN user_sign_ins s ON s.user_id = u.id
      WHERE u.organisation_id = ?`),
    // Newest first from the (at, id) index, backwards: no sorting.
    imports: db.prepare('SELECT * FROM roster_imports ORDER BY at DESC, id DESC LIMIT ?'),
    leavers: db.prepare("SELECT * FROM users WHERE roster_hold = 'left' AND roster_hold_since <= ?"),
  };
  const write = sqliteRosterWriter(db);
  const enrolmentsOf = (organisationId: string) => (q.enrolmentsOfOrg.all(organisationId) as EnrolmentRow[]).map(toEnrolment);

  return {
    async rosterSnapshot(organisationIds) {
      const orgs = [...new Set(organisationIds)];
      const memberships = new Map<string, Membership>();
      for (const id of orgs) {
        for (const m of [...q.membershipsOfOrgUsers.all(id), ...q.membershipsInOrg.all(id)] as Membership[]) {
          memberships.set(JSON.stringify([m.userId, m.organisationId, m.role]), m);
        }
      }
      return {
        users: orgs.flatMap((id) => (q.usersOfOrg.all(id) as UserRow[]).map(toUser)),
        memberships: [...memberships.values()],
        academicSessions: orgs.flatMap((id) => (q.sessionsOfOrg.all(id) as AcademicSessionRow[]).map(toAcademicSession)),
        classes: orgs.flatMap((id) => (q.classesOfOrg.all(id) as ClassRow[]).map(toClass)),
        enrolments: orgs.flatMap(enrolmentsOf),
      };
    },
    async applyRoster(changes) { await batch.write(() => write(changes)); },
    async listClasses(organisationId) {
      const classes = (q.classesOfOrg.all(organisationId) as ClassRow[]).map(toClass);
      const teachers = (q.teachersOfOrg.all(organisationId) as TeacherRow[]).map((t) => ({ ...t, primary: t.primary === 1 }));
      return summariseClasses(classes, teachers, (q.pupilsOfOrg.all(organisationId) as { classId: string }[]).map((p) => p.classId));
    },
    async findClass(organisationId, idOrSourcedId) {
      const row = (q.classById.get(idOrSourcedId, organisationId) ?? q.classBySourcedId.get(organisationId, idOrSourcedId)) as ClassRow | undefined;
      return row && toClass(row);
    },
    async classEnrolments(classId) {
      return (q.classEnrolments.all(classId) as EnrolmentRow[]).map(toEnrolment).sort(ROSTER_ORDER.enrolments);
    },
    async organisationEnrolments(organisationId) { return enrolmentsOf(organisationId).sort(ROSTER_ORDER.enrolments); },
    async userEnrolments(userId) {
      return (q.userEnrolments.all(userId) as EnrolmentRow[]).map(toEnrolment).sort(ROSTER_ORDER.enrolments);
    },
    async listAcademicSessions(organisationId) {
      return (q.sessionsOfOrg.all(organisationId) as AcademicSessionRow[]).map(toAcademicSession).sort(ROSTER_ORDER.sessions);
    },
    async userMemberships(userId) { return (q.membershipsOfUser.all(userId) as Membership[]).sort(ROSTER_ORDER.memberships); },
    async recordSignIn(userId, at) { await batch.write(() => q.signIn.run({ userId, at })); },
    async lastSignIns(organisationId) {
      return new Map((q.lastSignIns.all(organisationId) as { userId: string; at: string }[]).map((s) => [s.userId, s.at]));
    },
    async listRosterImports(limit) { return (q.imports.all(limit) as RosterImportRow[]).map(toRosterImport) satisfies RosterImportRun[]; },
    async leaversBefore(before) { return (q.leavers.all(before) as UserRow[]).map(toUser).sort(ROSTER_ORDER.leavers); },
  };
}
