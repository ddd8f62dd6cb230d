import { type Directory, sessionsEndNow } from '../store.js';
import type { RedisContext } from './context.js';
import { CREDENTIAL_KINDS, credentialField } from './credential-fields.js';
import { scanHash } from './scan.js';
import { defineScript } from './scripts.js';
import type { EntryIO } from './transfer.js';

/**
 * Lua: moves a user's sessionsValidAfter forward to `now` (never back); 0 when there is no such user.
 * Shared by every script that ends sessions: these below, a credential replaced (directory.ts), a badge
 * voided (badges.ts).
 */
export const END_SESSIONS_LUA = `
local function endSessions(users, id, now)
  local json = redis.call('HGET', users, id)
  if not json then return 0 end
  local u = cjson.decode(json)
  if not u.sessionsValidAfter or u.sessionsValidAfter < now then u.sessionsValidAfter = now end
  redis.call('HSET', users, id, cjson.encode(u))
  return 1
end`;

// KEYS: users. ARGV: user id, now.
const END_SESSIONS = `${END_SESSIONS_LUA}
return endSessions(KEYS[1], ARGV[1], tonumber(ARGV[2]))`;

// KEYS: users. ARGV: user id, suspendedAt ('' lifts the suspension), now. Suspending ends the sessions.
const SET_SUSPENDED = `${END_SESSIONS_LUA}
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return 0 end
local u = cjson.decode(json)
if ARGV[2] == '' then u.suspendedAt = nil else u.suspendedAt = ARGV[2] end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(u))
if ARGV[2] ~= '' then endSessions(KEYS[1], ARGV[1], tonumber(ARGV[3])) end
return 1`;

// KEYS: users, the organisation's usernames, credentials, badges, the user's badges, the organisation's
// badges, retired-users, the organisation's source ids, memberships, sign-ins, leavers, the user's classes,
// the user's help code, the user's staff grants, staff factors, the user's recovery codes, staff steps, staff
// tokens, the user's staff tokens. ARGV: user id, organisation id, retiredAt, the prefix of a class's
// enrolments key, the prefix of a school's staff grants key, then the user's credential fields. Erases the
// user (their roster records too: enrolments, memberships, sign-in time; and the school console's: help code,
// staff grants, second factor, API tokens), keeps the id in retired-users; 0 when there is no such user in
// that organisation. A class's enrolments key and a school's grants key are made from the prefixes: they
// share the {directory} tag, so the script stays in one slot.
const DELETE_USER = `
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return 0 end
local u = cjson.decode(json)
if u.organisationId ~= ARGV[2] then return 0 end
local nameKey = string.lower(u.username)
if redis.call('HGET', KEYS[2], nameKey) == ARGV[1] then redis.call('HDEL', KEYS[2], nameKey) end
if u.sourceId and redis.call('HGET', KEYS[8], u.sourceId) == ARGV[1] then redis.call('HDEL', KEYS[8], u.sourceId) end
redis.call('HDEL', KEYS[9], ARGV[1])
redis.call('HDEL', KEYS[10], ARGV[1])
redis.call('HDEL', KEYS[11], ARGV[1])
for _, classId in ipairs(redis.call('SMEMBERS', KEYS[12])) do redis.call('HDEL', ARGV[4] .. classId, ARGV[1]) end
redis.call('DEL', KEYS[12])
redis.call('DEL', KEYS[13])
for _, g in ipairs(redis.call('HVALS', KEYS[14])) do
  local grant = cjson.decode(g)
  redis.call('HDEL', ARGV[5] .. grant.organisationId, ARGV[1] .. ' ' .. grant.role)
end
redis.call('DEL', KEYS[14])
redis.call('HDEL', KEYS[15], ARGV[1])
redis.call('DEL', KEYS[16])
redis.call('HDEL', KEYS[17], ARGV[1])
for _, id in ipairs(redis.call('SMEMBERS', KEYS[19])) do
  local t = redis.call('HGET', KEYS[18], id)
  if t and cjson.decode(t).userId == ARGV[1] then redis.call('HDEL', KEYS[18], id) end
end
redis.call('DEL', KEYS[19])
for i = 6, #ARGV do redis.call('HDEL', KEYS[3], ARGV[i]) end
for _, code in ipairs(redis.call('SMEMBERS', KEYS[5])) do
  local b = redis.call('HGET', KEYS[4], code)
  if b and cjson.decode(b).userId == ARGV[1] then
    redis.call('HDEL', KEYS[4], code)
    redis.call('SREM', KEYS[6], code)
  end
end
redis.call('DEL', KEYS[5])
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[7], ARGV[1], ARGV[3])
return 1`;

/** Removes every protocol record of an account (the oidc records' revokeByAccountId). */
export type RevokeAccount = (accountId: string) => Promise<number>;

type Lifecycle = Pick<Directory, 'endSessions' | 'setSuspended' | 'deleteUser' | 'isRetiredUserId'>;

/**
 * A user's sessions, suspension and deletion in Redis. Each is one script on the user under the
 * {directory} tag, then `revokeAccount` on the protocol records, which live in other hash slots.
 */
export function redisUserLifecycle({ client, keys }: RedisContext, revokeAccount: RevokeAccount) {
  const k = keys.directory;
  const r = keys.roster;
  const s = keys.staff;
  const endSessions = defineScript(client, 'lanyardEndSessions', END_SESSIONS);
  const setSuspended = defineScript(client, 'lanyardSetSuspended', SET_SUSPENDED);
  const deleteUser = defineScript(client, 'lanyardDeleteUser', DELETE_USER);

  const methods: Lifecycle = {
    async endSessions(userId) {
      const found = (await endSessions([k.users], [userId, sessionsEndNow()])) === 1;
      await revokeAccount(userId);
      return found;
    },
    async setSuspended(userId, suspendedAt) {
      const found = (await setSuspended([k.users], [userId, suspendedAt ?? '', sessionsEndNow()])) === 1;
      if (suspendedAt !== undefined) await revokeAccount(userId);
      return found;
    },
    async deleteUser(userId, retiredAt) {
      const json = await client.hget(k.users, userId);
      const organisationId = json ? (JSON.parse(json) as { organisationId: string }).organisationId : undefined;
      const found = organisationId !== undefined && (await deleteUser([
        k.users, k.usernames(organisationId), k.credentials, k.badges, k.badgesOfUser(userId),
        k.badgesOfOrg(organisationId), k.retiredUsers, r.sourceIds(organisationId), r.memberships, r.signIns, r.leavers,
        r.enrolmentsOfUser(userId), keys.helpCodes.code(userId), s.grantsOf(userId), s.factors, s.recovery(userId), s.steps,
        s.tokens, s.tokensOf(userId),
      ], [userId, organisationId, retiredAt, r.enrolmentsPrefix, s.grantsPrefix, ...CREDENTIAL_KINDS.map((kind) => credentialField(userId, kind))])) === 1;
      await revokeAccount(userId);
      return found;
    },
    async isRetiredUserId(id) { return (await client.hexists(k.retiredUsers, id)) === 1; },
  };

  const retiredUsers: EntryIO<'retired_user'> = {
    async *read() {
      for await (const batch of scanHash(client, k.retiredUsers)) yield* batch.map(([id, retiredAt]) => ({ id, retiredAt }));
    },
    count: () => client.hlen(k.retiredUsers),
    async write({ id, retiredAt }) { await client.hset(k.retiredUsers, id, retiredAt); },
  };

  return { methods, retiredUsers };
}
