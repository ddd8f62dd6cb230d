import type { RedisContext } from './context.js';
import { ADD_MEMBERSHIP, chunks, enrolmentJson, type StoredMemberships, toAcademicSession, toClass, toEnrolment, toRosterImport } from './roster-records.js';
import { scanHash } from './scan.js';
import { defineScript, execPipeline } from './scripts.js';
import type { EntryIO } from './transfer.js';

/** Classes whose enrolments one pipeline reads. */
const CLASSES_AT_ONCE = 200;

/** The roster's kinds of entry for `lanyard store copy` (transfer.ts): read, counted and written with their indexes. */
export function redisRosterEntries({ client, keys }: RedisContext) {
  const r = keys.roster;
  const addMembership = defineScript(client, 'lanyardAddMembership', ADD_MEMBERSHIP);

  async function* classIds(): AsyncGenerator<string[]> {
    for await (const batch of scanHash(client, r.classes)) yield batch.map(([id]) => id);
  }

  const academic_session: EntryIO<'academic_session'> = {
    async *read() { for await (const batch of scanHash(client, r.sessions)) yield* batch.map(([, json]) => toAcademicSession(json)); },
    count: () => client.hlen(r.sessions),
    async write(s) {
      await execPipeline(client.multi().hset(r.sessions, s.id, JSON.stringify(s)).sadd(r.sessionsOf(s.organisationId), s.id));
    },
  };
  const klass: EntryIO<'class'> = {
    async *read() { for await (const batch of scanHash(client, r.classes)) yield* batch.map(([, json]) => toClass(json)); },
    count: () => client.hlen(r.classes),
    async write(c) {
      await execPipeline(client.multi().hset(r.classes, c.id, JSON.stringify(c)).sadd(r.classesOf(c.organisationId), c.id)
        .hset(r.classSourcedIds(c.organisationId), c.sourcedId, c.id));
    },
  };
  const enrolment: EntryIO<'enrolment'> = {
    async *read() {
      for await (const ids of classIds()) {
        for (const part of chunks(ids, CLASSES_AT_ONCE)) {
          const read = client.pipeline();
          for (const id of part) read.hgetall(r.enrolments(id));
          const hashes = (await execPipeline(read)) as Record<string, string>[];
          for (const [i, hash] of hashes.entries()) {
            yield* Object.entries(hash).map(([userId, json]) => toEnrolment(part[i]!, userId, json));
          }
        }
      }
    },
    async count() {
      let n = 0;
      for await (const ids of classIds()) {
        const read = client.pipeline();
        for (const id of ids) read.hlen(r.enrolments(id));
        for (const len of await execPipeline(read)) n += len as number;
      }
      return n;
    },
    async write(e) {
      await execPipeline(client.multi().hset(r.enrolments(e.classId), e.userId, enrolmentJson(e)).sadd(r.enrolmentsOfUser(e.userId), e.classId));
    },
  };
  const membership: EntryIO<'membership'> = {
    async *read() {
      for await (const batch of scanHash(client, r.memberships)) {
        for (const [userId, json] of batch) {
          yield* (JSON.parse(json) as StoredMemberships).map((m) => ({ userId, organisationId: m.organisationId, role: m.role }));
        }
      }
    },
    async write(m) { await addMembership([r.memberships, r.membersIn(m.organisationId)], [m.userId, m.organisationId, m.role]); },
  };
  const roster_import: EntryIO<'roster_import'> = {
    async *read() { for await (const batch of scanHash(client, r.imports)) yield* batch.map(([, json]) => toRosterImport(json)); },
    count: () => client.hlen(r.imports),
    async write(run) {
      await execPipeline(client.multi().hset(r.imports, run.id, JSON.stringify(run)).zadd(r.importsByTime, Date.parse(run.at), run.id));
    },
  };
  const sign_in: EntryIO<'sign_in'> = {
    async *read() { for await (const batch of scanHash(client, r.signIns)) yield* batch.map(([userId, at]) => ({ userId, at })); },
    count: () => client.hlen(r.signIns),
    async write({ userId, at }) { await client.hset(r.signIns, userId, at); },
  };
  return { academic_session, class: klass, enrolment, membership, roster_import, sign_in };
}
