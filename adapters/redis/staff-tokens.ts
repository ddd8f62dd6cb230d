import { LanyardError } from '../../src/errors.js';
import type { Staff, StaffApiToken } from '../store.js';
import { byKeys } from '../store/collation.js';
import type { RedisContext } from './context.js';
import { scanHash } from './scan.js';
import { defineScript, TOUCH_LAST_USED } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: users, tokens, the user's tokens. ARGV: user id, token id, JSON. 0 when the user does not exist.
const PUT_TOKEN = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[2])
return 1`;

// KEYS: tokens, the user's tokens. ARGV: user id, token id. Only the owner's token is removed.
const DELETE_TOKEN = `
local t = redis.call('HGET', KEYS[1], ARGV[2])
if not t or cjson.decode(t).userId ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[2])
redis.call('SREM', KEYS[2], ARGV[2])
return 1`;

const json = (t: StaffApiToken) => JSON.stringify({
  id: t.id, userId: t.userId, hash: t.hash, label: t.label, hint: t.hint, createdAt: t.createdAt, expiresAt: t.expiresAt,
  lastUsedAt: t.lastUsedAt ?? undefined,
} satisfies StaffApiToken);

const toToken = (s: string): StaffApiToken => {
  const t = JSON.parse(s) as StaffApiToken;
  return {
    id: t.id, userId: t.userId, hash: t.hash, label: t.label, hint: t.hint, createdAt: t.createdAt, expiresAt: t.expiresAt,
    lastUsedAt: t.lastUsedAt ?? undefined,
  };
};

const oldestFirst = byKeys<StaffApiToken>((t) => t.createdAt, (t) => t.id);

type Tokens = Pick<Staff, 'putStaffApiToken' | 'findStaffApiToken' | 'listStaffApiTokens' | 'deleteStaffApiToken' | 'touchStaffApiToken'>;

/**
 * Staff API tokens in Redis, under the {directory} tag with the people they belong to (a user's deletion
 * removes theirs: adapters/redis/user-lifecycle.ts): the tokens by id, and each person's set of ids, whose
 * members are checked against the tokens on read.
 */
export function redisStaffTokens({ client, keys }: RedisContext) {
  const k = keys.staff;
  const put = defineScript(client, 'lanyardPutStaffToken', PUT_TOKEN);
  const del = defineScript(client, 'lanyardDeleteStaffToken', DELETE_TOKEN);
  const touch = defineScript(client, 'lanyardTouchStaffToken', TOUCH_LAST_USED);

  const tokens: Tokens = {
    async putStaffApiToken(t) {
      if ((await put([keys.directory.users, k.tokens, k.tokensOf(t.userId)], [t.userId, t.id, json(t)])) === 0) {
        throw new LanyardError('not_found', `user ${t.userId} does not exist`, 404, true);
      }
    },
    async findStaffApiToken(id) {
      const s = await client.hget(k.tokens, id);
      return s ? toToken(s) : undefined;
    },
    async listStaffApiTokens(userId) {
      const ids = await client.smembers(k.tokensOf(userId));
      const found = ids.length ? await client.hmget(k.tokens, ...ids) : [];
      return found.flatMap((s) => (s ? [toToken(s)] : [])).filter((t) => t.userId === userId).sort(oldestFirst);
    },
    async deleteStaffApiToken(userId, id) { return (await del([k.tokens, k.tokensOf(userId)], [userId, id])) === 1; },
    async touchStaffApiToken(id, at) { await touch([k.tokens], [id, at]); },
  };

  const entries: EntryIO<'staff_token'> = {
    async *read() {
      for await (const batch of scanHash(client, k.tokens)) yield* batch.map(([, s]) => toToken(s));
    },
    count: () => client.hlen(k.tokens),
    write: (t) => tokens.putStaffApiToken(t),
  };

  return { tokens, entries };
}
