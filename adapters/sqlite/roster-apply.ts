import type Database from 'better-sqlite3';
import { LanyardError } from '../../src/errors.js';
import { asciiLower } from '../store/collation.js';
import type { RosterChanges, RosterUser } from '../store.js';
import { sqliteAccountSessions } from './account-sessions.js';
import { errorCode } from './busy-retry.js';
import {
  ACADEMIC_SESSION_UPSERT_SQL, academicSessionRow, CLASS_UPSERT_SQL, classRow, ENROLMENT_UPSERT_SQL, enrolmentRow,
  MEMBERSHIP_INSERT_SQL, ROSTER_IMPORT_UPSERT_SQL, rosterImportRow,
} from './roster-rows.js';

/** A user's roster fields as the statements take them (undefined: NULL, so an update clears it). */
const userParams = (u: RosterUser) => ({
  id: u.id, organisationId: u.organisationId, username: u.username, givenName: u.givenName, familyName: u.familyName,
  type: u.type, email: u.email ?? null, rosterId: u.rosterId ?? null, sourceId: u.sourceId ?? null,
});

/** A username no one can have (a control character and the user's id): held while names change hands. */
const parkedName = (id: string) => `\u0001${id}`;

interface StoredKeys { organisation_id: string; username: string; source_id: string | null }

/**
 * RosterStore.applyRoster in SQLite, as one synchronous function for the write batch (write-batch.ts): it
 * ends sessions, so it runs there, in the batch's transaction and its own savepoint; any error undoes all of
 * it and nothing else. A uniqueness or reference the change breaks (a username or source id another user
 * holds, a class of an unknown school) is a 409.
 */
export function sqliteRosterWriter(db: Database.Database): (changes: RosterChanges) => void {
  const q = {
    orgPut: db.prepare(`INSERT INTO organisations (id, slug, name, source_id) VALUES (@id, @slug, @name, @sourceId)
      ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, name = excluded.name, source_id = excluded.source_id`),
    userKeys: db.prepare('SELECT organisation_id, username, source_id FROM users WHERE id = ?'),
    retired: db.prepare('SELECT 1 FROM retired_user_ids WHERE id = ?'),
    park: db.prepare('UPDATE users SET username = ?, source_id = NULL WHERE id = ?'),
    userInsert: db.prepare(`INSERT INTO users (id, organisation_id, username, given_name, family_name, type, email,
      roster_id, source_id) VALUES (@id, @organisationId, @username, @givenName, @familyName, @type, @email, @rosterId, @sourceId)`),
    // Only the roster's own fields: the matched accounts, credentials and holds are left as they are now.
    userUpdate: db.prepare(`UPDATE users SET organisation_id = @organisationId, username = @username, given_name = @givenName,
      family_name = @familyName, type = @type, email = @email, roster_id = @rosterId, source_id = @sourceId WHERE id = @id`),
    hold: db.prepare('UPDATE users SET roster_hold = ?, roster_hold_since = ? WHERE id = ?'),
    voidBadges: db.prepare('DELETE FROM badges WHERE user_id = ?'),
    membershipPut: db.prepare(MEMBERSHIP_INSERT_SQL),
    membershipRemove: db.prepare('DELETE FROM memberships WHERE user_id = @userId AND organisation_id = @organisationId AND role = @role'),
    sessionPut: db.prepare(ACADEMIC_SESSION_UPSERT_SQL),
    sessionRemove: db.prepare('DELETE FROM academic_sessions WHERE id = ?'),
    classPut: db.prepare(CLASS_UPSERT_SQL),
    classEnrolmentsRemove: db.prepare('DELETE FROM enrolments WHERE class_id = ?'),
    classRemove: db.prepare('DELETE FROM classes WHERE id = ?'),
    enrolmentPut: db.prepare(ENROLMENT_UPSERT_SQL),
    enrolmentRemove: db.prepare('DELETE FROM enrolments WHERE class_id = ? AND user_id = ?'),
    run: db.prepare(ROSTER_IMPORT_UPSERT_SQL),
  };
  const sessions = sqliteAccountSessions(db);

  const writeUsers = (users: RosterUser[]) => {
    const stored = users.map((u) => q.userKeys.get(u.id) as StoredKeys | undefined);
    users.forEach((u, i) => {
      if (!stored[i] && q.retired.get(u.id)) {
        throw new LanyardError('conflict', `user id ${u.id} belonged to a deleted user and is never reused; nothing was changed`, 409, true);
      }
    });
    // Whoever changes school, username or source id lets go of the old ones first: names may change hands
    // within one change (a swap), which the unique indexes would refuse one row at a time.
    users.forEach((u, i) => {
      const s = stored[i];
      if (s && (s.organisation_id !== u.organisationId || asciiLower(s.username) !== asciiLower(u.username)
        || s.source_id !== (u.sourceId ?? null))) q.park.run(parkedName(u.id), u.id);
    });
    users.forEach((u, i) => (stored[i] ? q.userUpdate : q.userInsert).run(userParams(u)));
  };

  const apply = (c: RosterChanges) => {
    for (const o of c.organisations) q.orgPut.run({ id: o.id, slug: o.slug, name: o.name, sourceId: o.sourceId ?? null });
    writeUsers(c.users);
    for (const { userId, hold, at } of c.holds) {
      if (hold === undefined) {
        q.hold.run(null, null, userId);
        continue;
      }
      if (q.hold.run(hold, at, userId).changes === 0) continue;
      if (hold === 'left') q.voidBadges.run(userId);
      sessions.end(userId);
    }
    for (const m of c.memberships.remove) q.membershipRemove.run(m);
    for (const m of c.memberships.put) q.membershipPut.run(m);
    // Removals before puts: a record may take the sourced id of one that goes.
    for (const id of c.academicSessions.remove) q.sessionRemove.run(id);
    for (const s of c.academicSessions.put) q.sessionPut.run(academicSessionRow(s));
    for (const e of c.enrolments.remove) q.enrolmentRemove.run(e.classId, e.userId);
    for (const id of c.classes.remove) {
      q.classEnrolmentsRemove.run(id);
      q.classRemove.run(id);
    }
    for (const k of c.classes.put) q.classPut.run(classRow(k));
    for (const e of c.enrolments.put) q.enrolmentPut.run(enrolmentRow(e));
    q.run.run(rosterImportRow(c.run));
  };

  return (changes) => {
    try {
      apply(changes);
    } catch (err) {
      const code = errorCode(err);
      if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        throw new LanyardError('conflict', 'the roster change refers to a school, user or class that does not exist; nothing was changed', 409, true);
      }
      if (code?.startsWith('SQLITE_CONSTRAINT')) {
        throw new LanyardError('conflict', `the roster change conflicts with what is stored (${(err as Error).message}); nothing was changed`, 409, true);
      }
      throw err;
    }
  };
}
