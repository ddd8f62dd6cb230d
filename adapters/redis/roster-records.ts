import type { AcademicSession, Enrolment, RosterClass, RosterImportRun, RosterUser } from '../store.js';
import { END_SESSIONS_LUA } from './user-lifecycle.js';

/** How the Redis store keeps the roster's records (adapters/redis/key-layout.ts), and the scripts that change users. */

/**
 * The fields of a user the roster writes (RosterUser: the roster's own); everything else in the stored JSON is
 * kept as it is at the write, the matched Google and Microsoft accounts included.
 */
export const ROSTER_USER_FIELDS = [
  'organisationId', 'username', 'givenName', 'familyName', 'type', 'email', 'rosterId', 'sourceId',
] as const satisfies readonly (keyof RosterUser)[];

/**
 * KEYS: users. ARGV: a JSON array of users, each with its id and the RosterUser fields it has. Each user's
 * roster fields are written as given (one that is absent is cleared); a stored user keeps the rest (its
 * suspension, hold, sessionsValidAfter). Queued inside the roster's MULTI, in chunks: EVAL, not EVALSHA, so
 * a script cache emptied meanwhile cannot fail it half-way.
 */
export const WRITE_ROSTER_USERS = `
local fields = {${ROSTER_USER_FIELDS.map((f) => `'${f}'`).join(', ')}}
for _, r in ipairs(cjson.decode(ARGV[1])) do
  local old = redis.call('HGET', KEYS[1], r.id)
  local u = old and cjson.decode(old) or {}
  u.id = r.id
  for _, f in ipairs(fields) do u[f] = r[f] end
  redis.call('HSET', KEYS[1], r.id, cjson.encode(u))
end
return 1`;

/**
 * KEYS: users, badges, the user's badges, leavers. ARGV: user id, hold ('' lifts it), since, now (sessions
 * instant). Setting a hold ends the user's sessions (as endSessions; the protocol records go afterwards,
 * outside the MULTI: other slots); `left` also voids the user's badges (as revokeBadges). Lifting it changes
 * nothing else. 0 when there is no such user.
 */
export const SET_ROSTER_HOLD = `${END_SESSIONS_LUA}
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return 0 end
local u = cjson.decode(json)
if ARGV[2] == '' then
  u.rosterHold = nil
  u.rosterHoldSince = nil
else
  u.rosterHold = ARGV[2]
  u.rosterHoldSince = ARGV[3]
end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(u))
if ARGV[2] == 'left' then redis.call('HSET', KEYS[4], ARGV[1], ARGV[3]) else redis.call('HDEL', KEYS[4], ARGV[1]) end
if ARGV[2] == '' then return 1 end
if ARGV[2] == 'left' then
  for _, code in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    local b = redis.call('HGET', KEYS[2], code)
    if b and cjson.decode(b).userId == ARGV[1] then redis.call('HDEL', KEYS[2], code) end
  end
  redis.call('DEL', KEYS[3])
end
endSessions(KEYS[1], ARGV[1], tonumber(ARGV[4]))
return 1`;

/** KEYS: a hash. ARGV: fields. Those of the fields the hash does not have (existence only: no values travel). */
export const MISSING_FIELDS = `
local missing = {}
for _, f in ipairs(ARGV) do
  if redis.call('HEXISTS', KEYS[1], f) == 0 then table.insert(missing, f) end
end
return missing`;

/** KEYS: users, sign-ins. ARGV: user id, at. One write, and only for a user who exists. */
export const RECORD_SIGN_IN = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`;

/**
 * KEYS: memberships, the school's members. ARGV: user id, organisation id, role. Adds one membership to the
 * user's list (for the store copy, which writes side by side).
 */
export const ADD_MEMBERSHIP = `
local json = redis.call('HGET', KEYS[1], ARGV[1])
local list = json and cjson.decode(json) or {}
for _, m in ipairs(list) do
  if m.organisationId == ARGV[2] and m.role == ARGV[3] then return 0 end
end
table.insert(list, {organisationId = ARGV[2], role = ARGV[3]})
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(list))
redis.call('SADD', KEYS[2], ARGV[1])
return 1`;

/** A user's memberships as stored: the other schools and the role at each. */
export type StoredMemberships = { organisationId: string; role: string }[];

export const toAcademicSession = (json: string): AcademicSession => {
  const s = JSON.parse(json) as AcademicSession;
  return {
    id: s.id, organisationId: s.organisationId, sourcedId: s.sourcedId, title: s.title, type: s.type, startDate: s.startDate,
    endDate: s.endDate, parentSourcedId: s.parentSourcedId, schoolYear: s.schoolYear,
  };
};

export const toClass = (json: string): RosterClass => {
  const c = JSON.parse(json) as RosterClass;
  return {
    id: c.id, organisationId: c.organisationId, sourcedId: c.sourcedId, title: c.title, classCode: c.classCode,
    classType: c.classType, courseSourcedId: c.courseSourcedId, courseTitle: c.courseTitle, courseCode: c.courseCode,
    location: c.location, grades: c.grades, subjects: c.subjects, periods: c.periods, academicSessionIds: c.academicSessionIds,
  };
};

/** An enrolment as stored in its class's hash, under the user's id. */
type StoredEnrolment = Omit<Enrolment, 'classId' | 'userId'>;

export const enrolmentJson = (e: Enrolment): string => JSON.stringify({
  role: e.role, primary: e.primary, sourcedId: e.sourcedId, beginDate: e.beginDate, endDate: e.endDate,
} satisfies StoredEnrolment);

export const toEnrolment = (classId: string, userId: string, json: string): Enrolment => {
  const e = JSON.parse(json) as StoredEnrolment;
  return { classId, userId, role: e.role, primary: e.primary, sourcedId: e.sourcedId, beginDate: e.beginDate, endDate: e.endDate };
};

export const toRosterImport = (json: string): RosterImportRun => {
  const r = JSON.parse(json) as RosterImportRun;
  return { id: r.id, at: r.at, by: r.by, format: r.format, digest: r.digest, organisations: r.organisations, counts: r.counts };
};

/** Splits a list into chunks of `size` (commands and scripts are given bounded argument lists). */
export function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
