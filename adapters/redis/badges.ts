import { LanyardError } from '../../src/errors.js';
import { type Badges, type BadgeHolder, sessionsEndNow } from '../store.js';
import type { RedisContext } from './context.js';
import { END_SESSIONS_LUA, type RevokeAccount } from './user-lifecycle.js';
import { defineScript } from './scripts.js';
import { scanHash } from './scan.js';
import type { EntryIO } from './transfer.js';

// KEYS: badges, the user's badges, the organisation's badges, users, orgs. ARGV: user id, organisation id,
// code hash, badge JSON, now. Voids the user's earlier badges (ending their sessions) and stores this one.
// 0 when the user or the organisation does not exist, -1 when another user's badge has this hash, 2 when an
// earlier badge was voided, else 1.
const ISSUE = `${END_SESSIONS_LUA}
if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 0 or redis.call('HEXISTS', KEYS[5], ARGV[2]) == 0 then return 0 end
local taken = redis.call('HGET', KEYS[1], ARGV[3])
if taken and cjson.decode(taken).userId ~= ARGV[1] then return -1 end
local voided = 0
for _, code in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local b = redis.call('HGET', KEYS[1], code)
  if b and cjson.decode(b).userId == ARGV[1] then
    redis.call('HDEL', KEYS[1], code)
    redis.call('SREM', KEYS[3], code)
    voided = 1
  end
end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
redis.call('SADD', KEYS[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[3])
if voided == 1 then
  endSessions(KEYS[4], ARGV[1], tonumber(ARGV[5]))
  return 2
end
return 1`;

// KEYS: badges, a user's or an organisation's badge set, users. ARGV: 'userId' or 'organisationId', its
// value, now. Members are checked: the set of the other side may still list a badge voided through this
// one. Ends the sessions of each holder; returns the holder of each badge voided.
const REVOKE = `${END_SESSIONS_LUA}
local holders = {}
for _, code in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local b = redis.call('HGET', KEYS[1], code)
  if b then
    local badge = cjson.decode(b)
    if badge[ARGV[1]] == ARGV[2] then
      redis.call('HDEL', KEYS[1], code)
      endSessions(KEYS[3], badge.userId, tonumber(ARGV[3]))
      table.insert(holders, badge.userId)
    end
  end
end
redis.call('DEL', KEYS[2])
return holders`;

// KEYS: badges, the user's badges, the organisation's badges. ARGV: code hash, badge JSON.
const IMPORT = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[1])
return 1`;

interface StoredBadge { userId: string; organisationId: string; createdAt: number }

/**
 * Badges in Redis, under the {directory} tag with the users they belong to. Voiding a badge ends its
 * holder's sessions: the user's sessionsValidAfter in the same script, then `revokeAccount` on the
 * protocol records (other hash slots).
 */
export function redisBadges({ client, keys, now }: RedisContext, revokeAccount: RevokeAccount) {
  const k = keys.directory;
  const issue = defineScript(client, 'lanyardIssueBadge', ISSUE);
  const revoke = defineScript(client, 'lanyardRevokeBadges', REVOKE);
  const importBadge = defineScript(client, 'lanyardImportBadge', IMPORT);
  const json = (b: StoredBadge) => JSON.stringify({ userId: b.userId, organisationId: b.organisationId, createdAt: b.createdAt });

  const badges: Badges = {
    async issueBadge(userId, organisationId, codeHash) {
      const done = await issue([k.badges, k.badgesOfUser(userId), k.badgesOfOrg(organisationId), k.users, k.orgs], [
        userId, organisationId, codeHash, json({ userId, organisationId, createdAt: now() }), sessionsEndNow(),
      ]);
      if (done === 0) throw new LanyardError('not_found', `user ${userId} or organisation ${organisationId} does not exist`, 404, true);
      if (done === -1) throw new Error('badge code hash already belongs to another user');
      if (done === 2) await revokeAccount(userId);
    },
    async findBadge(codeHash) {
      const stored = await client.hget(k.badges, codeHash);
      if (!stored) return undefined;
      const { userId, organisationId } = JSON.parse(stored) as StoredBadge;
      return { userId, organisationId } satisfies BadgeHolder;
    },
    async revokeBadges(scope) {
      const [set, field, value] = 'userId' in scope
        ? [k.badgesOfUser(scope.userId), 'userId', scope.userId]
        : [k.badgesOfOrg(scope.organisationId), 'organisationId', scope.organisationId];
      const holders = (await revoke([k.badges, set, k.users], [field, value, sessionsEndNow()])) as string[];
      for (const userId of new Set(holders)) await revokeAccount(userId);
      return holders.length;
    },
    async badgeHolders(organisationId) {
      const codes = await client.smembers(k.badgesOfOrg(organisationId));
      const stored = codes.length ? await client.hmget(k.badges, ...codes) : [];
      return new Set(stored.flatMap((b) => {
        const badge = b ? (JSON.parse(b) as StoredBadge) : undefined;
        return badge?.organisationId === organisationId ? [badge.userId] : [];
      }));
    },
  };

  const entries: EntryIO<'badge'> = {
    async *read() {
      for await (const batch of scanHash(client, k.badges)) {
        for (const [codeHash, stored] of batch) {
          const { userId, organisationId, createdAt } = JSON.parse(stored) as StoredBadge;
          yield { codeHash, userId, organisationId, createdAt };
        }
      }
    },
    count: () => client.hlen(k.badges),
    async write(b) {
      await importBadge([k.badges, k.badgesOfUser(b.userId), k.badgesOfOrg(b.organisationId)], [b.codeHash, json(b)]);
    },
  };

  return { badges, entries };
}
