import { LanyardError } from '../../src/errors.js';
import type { KeyRecords, StoredKey } from '../store.js';
import { byKeys } from '../store/collation.js';
import type { RedisContext } from './context.js';
import { defineScript } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: keys, active. ARGV: kid, month, JSON. Returns the month's active key: this one if the month had
// none; false when the kid is already taken by a revoked key (nothing stored).
const INSERT_IF_ABSENT = `
local active = redis.call('HGET', KEYS[2], ARGV[2])
if active then return redis.call('HGET', KEYS[1], active) end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return false end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
return ARGV[3]`;

// KEYS: keys, active. ARGV: kid, revokedAt, replacement kid, its month, its JSON. 0 when kid is not an
// active key. The replacement is stored as by INSERT_IF_ABSENT (its month free, its kid new).
// (A key's fields are all strings: cjson keeps them.)
const REPLACE = `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
local key = cjson.decode(cur)
if key.revokedAt then return 0 end
key.revokedAt = ARGV[2]
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(key))
if redis.call('HGET', KEYS[2], key.month) == ARGV[1] then redis.call('HDEL', KEYS[2], key.month) end
if not redis.call('HGET', KEYS[2], ARGV[4]) and redis.call('HEXISTS', KEYS[1], ARGV[3]) == 0 then
  redis.call('HSET', KEYS[1], ARGV[3], ARGV[5])
  redis.call('HSET', KEYS[2], ARGV[4], ARGV[3])
end
return 1`;

// KEYS: keys, active. ARGV: kid.
const DELETE = `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
local month = cjson.decode(cur).month
if redis.call('HGET', KEYS[2], month) == ARGV[1] then redis.call('HDEL', KEYS[2], month) end
return redis.call('HDEL', KEYS[1], ARGV[1])`;

// KEYS: keys, active. ARGV: kid, month, JSON, '1' when revoked. As SQLite's INSERT OR REPLACE: an
// unrevoked key replaces the month's other active key.
const IMPORT = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local month = cjson.decode(old).month
  if redis.call('HGET', KEYS[2], month) == ARGV[1] then redis.call('HDEL', KEYS[2], month) end
end
if ARGV[4] ~= '1' then
  local other = redis.call('HGET', KEYS[2], ARGV[2])
  if other and other ~= ARGV[1] then redis.call('HDEL', KEYS[1], other) end
  redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1`;

const keyJson = (k: StoredKey) => JSON.stringify({
  kid: k.kid, month: k.month, notBefore: k.notBefore, notAfter: k.notAfter, certificate: k.certificate,
  encryptedPrivateKey: k.encryptedPrivateKey, createdAt: k.createdAt, revokedAt: k.revokedAt || undefined,
});

const toKey = (json: string): StoredKey => {
  const k = JSON.parse(json) as StoredKey;
  return {
    kid: k.kid, month: k.month, notBefore: k.notBefore, notAfter: k.notAfter, certificate: k.certificate,
    encryptedPrivateKey: k.encryptedPrivateKey, createdAt: k.createdAt, ...(k.revokedAt ? { revokedAt: k.revokedAt } : {}),
  };
};

const byMonth = byKeys<StoredKey>((k) => k.month, (k) => k.createdAt, (k) => k.kid);

/** Signing keys in Redis, under the {keys} tag: a month → kid hash holds each month's one active key. */
export function redisSigningKeys({ client, keys }: RedisContext) {
  const k = [keys.keys.keys, keys.keys.active];
  const insertIfAbsent = defineScript(client, 'lanyardInsertKeyIfAbsent', INSERT_IF_ABSENT);
  const replace = defineScript(client, 'lanyardReplaceKey', REPLACE);
  const remove = defineScript(client, 'lanyardDeleteKey', DELETE);
  const importKey = defineScript(client, 'lanyardImportKey', IMPORT);

  const listKeys = async () => (await client.hvals(keys.keys.keys)).map(toKey).sort(byMonth);

  const records: KeyRecords = {
    listKeys,
    async insertKeyIfAbsent(key) {
      const active = await insertIfAbsent(k, [key.kid, key.month, keyJson(key)]);
      if (typeof active !== 'string') throw new LanyardError('conflict', `signing key ${key.kid} already exists (revoked)`, 409);
      return toKey(active);
    },
    async replaceKey(kid, replacement, revokedAt) {
      const done = await replace(k, [kid, revokedAt, replacement.kid, replacement.month, keyJson(replacement)]);
      if (done !== 1) throw new LanyardError('not_found', `signing key ${kid} is not an active key`, 404, true);
    },
    async deleteKey(kid) { await remove(k, [kid]); },
  };

  const entries: EntryIO<'key'> = {
    async *read() { yield* await listKeys(); },
    count: () => client.hlen(keys.keys.keys),
    async write(key) { await importKey(k, [key.kid, key.month, keyJson(key), key.revokedAt ? '1' : '']); },
  };

  return { records, entries };
}
