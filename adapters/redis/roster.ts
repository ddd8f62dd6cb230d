import type { Redis } from 'ioredis';
import type { AcademicSession, Enrolment, Membership, RosterClass, RosterStore, User } from '../store.js';
import { asciiLower } from '../store/collation.js';
import { ROSTER_ORDER, summariseClasses } from '../store/roster-order.js';
import type { RedisContext } from './context.js';
import { toUser } from './directory.js';
import { checkRoster, rosterWrites, watchedKeys } from './roster-apply.js';
import {
  chunks, RECORD_SIGN_IN, type StoredMemberships, toAcademicSession, toClass, toEnrolment, toRosterImport,
} from './roster-records.js';
import { readStored, storedUsers } from './roster-stored.js';
import { defineScript, execPipeline } from './scripts.js';
import type { RevokeAccount } from './user-lifecycle.js';

/** How often applyRoster reads again when someone else changed a watched key meanwhile. */
const TRIES = 5;
/** How long the roster's own connection waits for one command: EXEC of a whole district's change takes seconds. */
const TRANSACTION_TIMEOUT_MS = 120_000;
/** Fields per HMGET, HMGETs per pipeline, and classes whose enrolments one pipeline reads. */
const READ_CHUNK = 1000;
const CHUNKS_PER_PIPELINE = 5;
const CLASSES_PER_PIPELINE = 100;
/** Commands sent at once into the MULTI (each answered QUEUED): the client never holds the whole change as commands. */
const COMMANDS_AT_ONCE = 2000;
/** Accounts whose protocol records are removed side by side after a change set holds. */
const REVOKE_AT_ONCE = 20;

/**
 * The roster in Redis (key layout: key-layout.ts, under the {directory} tag with the users it refers to).
 * applyRoster is one MULTI/EXEC on a connection of its own, so that WATCH there guards exactly this change:
 * it watches what others write (deletions, new users and schools), reads what the change touches, checks
 * it as SQLite's constraints would (a 409 before anything is written), queues every write and executes
 * them at once. Redis runs all of it or, when a watched key changed, none (then it reads again); a
 * connection lost before EXEC leaves nothing. Users' fields are merged by a script inside the MULTI, so a
 * suspension or a credential change made meanwhile is kept.
 */
export function redisRoster(ctx: RedisContext, revokeAccount: RevokeAccount): RosterStore {
  const { client, keys } = ctx;
  const d = keys.directory;
  const r = keys.roster;
  const recordSignIn = defineScript(client, 'lanyardRecordSignIn', RECORD_SIGN_IN);

  /** The values of `fields` that exist, parsed a pipeline at a time (the raw text of a whole district never at once). */
  async function values<T>(key: string, fields: string[], parse: (field: string, json: string) => T): Promise<T[]> {
    const out: T[] = [];
    for (const group of chunks(fields, READ_CHUNK * CHUNKS_PER_PIPELINE)) {
      const read = client.pipeline();
      for (const part of chunks(group, READ_CHUNK)) read.hmget(key, ...part);
      ((await execPipeline(read)).flat() as (string | null)[]).forEach((json, i) => { if (json !== null) out.push(parse(group[i]!, json)); });
    }
    return out;
  }
  const members = (key: string) => client.smembers(key);
  async function usersOf(organisationId: string): Promise<User[]> {
    const index = await client.hgetall(d.usernames(organisationId));
    return (await values(d.users, Object.values(index), (_, json) => toUser(json)))
      .filter((u) => u.organisationId === organisationId && index[asciiLower(u.username)] === u.id);
  }
  async function classesOf(organisationId: string): Promise<RosterClass[]> {
    return (await values(r.classes, await members(r.classesOf(organisationId)), (_, json) => toClass(json)))
      .filter((c) => c.organisationId === organisationId);
  }
  async function sessionsOf(organisationId: string): Promise<AcademicSession[]> {
    return (await values(r.sessions, await members(r.sessionsOf(organisationId)), (_, json) => toAcademicSession(json)))
      .filter((s) => s.organisationId === organisationId);
  }
  async function enrolmentsOf(classIds: string[]): Promise<Enrolment[]> {
    const out: Enrolment[] = [];
    for (const part of chunks(classIds, CLASSES_PER_PIPELINE)) {
      const read = client.pipeline();
      for (const id of part) read.hgetall(r.enrolments(id));
      (await execPipeline(read)).forEach((hash, i) => {
        for (const [userId, json] of Object.entries(hash as Record<string, string>)) out.push(toEnrolment(part[i]!, userId, json));
      });
    }
    return out;
  }
  async function membershipsOf(userIds: string[], keep: (m: Membership) => boolean): Promise<Membership[]> {
    const lists = await values(r.memberships, userIds, (userId, json) =>
      (JSON.parse(json) as StoredMemberships).map((m) => ({ userId, organisationId: m.organisationId, role: m.role })));
    return lists.flat().filter(keep);
  }

  /**
   * One try: the users' schools first (only an import moves a user), then WATCH, the reads, the checks, and
   * the MULTI sent in parts and executed. undefined when a watched key changed (nothing was written).
   */
  async function applyOnce(conn: Redis, changes: Parameters<RosterStore['applyRoster']>[0]): Promise<string[] | undefined> {
    const before = await storedUsers(conn, keys, changes);
    await conn.watch(...watchedKeys(keys, changes, [...before.values()].map((u) => u.organisationId)));
    const stored = await readStored(conn, keys, changes, before);
    let plan: ReturnType<typeof checkRoster>;
    try {
      plan = checkRoster(keys, changes, stored);
    } catch (err) {
      await conn.unwatch();
      throw err;
    }
    await conn.multi({ pipeline: false });
    let part = conn.pipeline();
    let queued = 0;
    for (const [name, ...args] of rosterWrites(keys, changes, stored, plan)) {
      part.call(name, ...args);
      if (++queued % COMMANDS_AT_ONCE === 0) {
        await execPipeline(part); // a refused command (none is expected) aborts the whole EXEC
        part = conn.pipeline();
      }
    }
    await execPipeline(part);
    const replies = await conn.exec();
    if (replies === null) return undefined;
    const failed = replies.find(([err]) => err);
    if (failed) throw failed[0]!;
    return plan.held;
  }

  return {
    async rosterSnapshot(organisationIds) {
      const orgs = [...new Set(organisationIds)];
      const wanted = new Set(orgs);
      const users = (await Promise.all(orgs.map(usersOf))).flat();
      const classes = (await Promise.all(orgs.map(classesOf))).flat();
      const others = (await Promise.all(orgs.map((o) => members(r.membersIn(o))))).flat();
      const own = new Set(users.map((u) => u.id));
      const memberships = [
        ...await membershipsOf(users.map((u) => u.id), () => true),
        ...await membershipsOf([...new Set(others)].filter((id) => !own.has(id)), (m) => wanted.has(m.organisationId)),
      ];
      return {
        users,
        memberships,
        academicSessions: (await Promise.all(orgs.map(sessionsOf))).flat(),
        classes,
        enrolments: await enrolmentsOf(classes.map((c) => c.id)),
      };
    },
    async applyRoster(changes) {
      // Never reconnected, never a command sent again: after a lost connection, what followed MULTI would
      // otherwise be run outside it (ioredis resends unanswered commands on its new connection).
      const conn = client.duplicate({
        commandTimeout: TRANSACTION_TIMEOUT_MS, retryStrategy: () => null, reconnectOnError: () => false, autoResendUnfulfilledCommands: false,
      });
      conn.on('error', () => {}); // commands carry the errors
      let held: string[] | undefined;
      try {
        await conn.connect();
        for (let tries = 1; !(held = await applyOnce(conn, changes)); tries += 1) {
          if (tries >= TRIES) throw new Error(`the roster change met other writes ${TRIES} times running; nothing was changed`);
        }
      } finally {
        conn.disconnect();
      }
      for (const part of chunks([...new Set(held)], REVOKE_AT_ONCE)) await Promise.all(part.map(revokeAccount));
    },
    async listClasses(organisationId) {
      const classes = await classesOf(organisationId);
      const enrolments = await enrolmentsOf(classes.map((c) => c.id));
      const teaching = enrolments.filter((e) => e.role === 'teacher');
      const names = new Map((await values(d.users, [...new Set(teaching.map((e) => e.userId))], (id, json) => [id, toUser(json)] as const)));
      const teachers = teaching.flatMap((e) => {
        const u = names.get(e.userId);
        return u ? [{ classId: e.classId, userId: e.userId, primary: e.primary, givenName: u.givenName, familyName: u.familyName }] : [];
      });
      return summariseClasses(classes, teachers, enrolments.filter((e) => e.role === 'student').map((e) => e.classId));
    },
    async findClass(organisationId, idOrSourcedId) {
      const byId = await client.hget(r.classes, idOrSourcedId);
      const found = byId ? toClass(byId) : undefined;
      if (found?.organisationId === organisationId) return found;
      const id = await client.hget(r.classSourcedIds(organisationId), idOrSourcedId);
      const json = id === null ? null : await client.hget(r.classes, id);
      const bySourcedId = json ? toClass(json) : undefined;
      return bySourcedId?.organisationId === organisationId && bySourcedId.sourcedId === idOrSourcedId ? bySourcedId : undefined;
    },
    async classEnrolments(classId) { return (await enrolmentsOf([classId])).sort(ROSTER_ORDER.enrolments); },
    async organisationEnrolments(organisationId) {
      return (await enrolmentsOf((await classesOf(organisationId)).map((c) => c.id))).sort(ROSTER_ORDER.enrolments);
    },
    async userEnrolments(userId) {
      // The index names the user's classes; each class's own hash says whether they are still in it.
      return (await enrolmentsOf(await members(r.enrolmentsOfUser(userId)))).filter((e) => e.userId === userId).sort(ROSTER_ORDER.enrolments);
    },
    async listAcademicSessions(organisationId) { return (await sessionsOf(organisationId)).sort(ROSTER_ORDER.sessions); },
    async userMemberships(userId) { return (await membershipsOf([userId], () => true)).sort(ROSTER_ORDER.memberships); },
    async recordSignIn(userId, at) { await recordSignIn([d.users, r.signIns], [userId, at]); },
    async lastSignIns(organisationId) {
      const ids = Object.values(await client.hgetall(d.usernames(organisationId)));
      return new Map(await values(r.signIns, ids, (id, at) => [id, at] as const));
    },
    async listRosterImports(limit) {
      if (limit === 0) return [];
      const ids = await client.zrevrange(r.importsByTime, 0, limit < 0 ? -1 : limit - 1);
      return values(r.imports, ids, (_, json) => toRosterImport(json));
    },
    async leaversBefore(before) {
      const leaving = Object.entries(await client.hgetall(r.leavers)).filter(([, since]) => since <= before).map(([id]) => id);
      return (await values(d.users, leaving, (_, json) => toUser(json)))
        .filter((u) => u.rosterHold === 'left' && u.rosterHoldSince !== undefined && u.rosterHoldSince <= before)
        .sort(ROSTER_ORDER.leavers);
    },
  };
}
