import { LanyardError } from '../../src/errors.js';
import type { HelpCode, HelpCodeOutcome, HelpCodes } from '../store.js';
import { byKeys } from '../store/collation.js';
import { nativeTtlMs, type RedisContext } from './context.js';
import { defineScript } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: users, orgs, the pupil's code, the organisation's codes. ARGV: user id, organisation id, code JSON
// (without failures), code hash, expires (epoch ms), failures, Redis's own lifetime (ms). Replaces the pupil's
// code; 0 when the user, -1 when the organisation does not exist.
const PUT = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 0 then return -1 end
redis.call('DEL', KEYS[3])
redis.call('HSET', KEYS[3], 'code', ARGV[3], 'hash', ARGV[4], 'expires', ARGV[5], 'failures', ARGV[6])
redis.call('PEXPIRE', KEYS[3], ARGV[7])
redis.call('SADD', KEYS[4], ARGV[1])
return 1`;

// KEYS: the pupil's code. ARGV: code hash, now (epoch ms), most failures. The code goes when used, when it
// has expired and when the failures reach the most; a wrong one counts.
const TRY = `
local c = redis.call('HMGET', KEYS[1], 'hash', 'expires')
if not c[1] then return 'none' end
if tonumber(c[2]) <= tonumber(ARGV[2]) then
  redis.call('DEL', KEYS[1])
  return 'none'
end
if c[1] == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 'used'
end
if redis.call('HINCRBY', KEYS[1], 'failures', 1) >= tonumber(ARGV[3]) then redis.call('DEL', KEYS[1]) end
return 'wrong'`;

// KEYS: the organisation's codes. ARGV: the prefix of a pupil's code key, organisation id, now (epoch ms).
// The live codes as [JSON, failures, …]; members whose code is gone (or now for another school) are removed.
// A code key is made from the prefix: it shares the {directory} tag, so the script stays in one slot.
const LIST = `
local out = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local c = redis.call('HMGET', ARGV[1] .. id, 'code', 'expires', 'failures')
  if not c[1] or cjson.decode(c[1]).organisationId ~= ARGV[2] then
    redis.call('SREM', KEYS[1], id)
  elseif tonumber(c[2]) > tonumber(ARGV[3]) then
    table.insert(out, c[1])
    table.insert(out, c[3])
  end
end
return out`;

const json = (c: HelpCode) => JSON.stringify({
  userId: c.userId, organisationId: c.organisationId, codeHash: c.codeHash, createdAt: c.createdAt, expiresAt: c.expiresAt,
  issuedBy: c.issuedBy,
} satisfies Omit<HelpCode, 'failures'>);

const toHelpCode = (code: string, failures: string): HelpCode => {
  const c = JSON.parse(code) as HelpCode;
  return {
    userId: c.userId, organisationId: c.organisationId, codeHash: c.codeHash, createdAt: c.createdAt, expiresAt: c.expiresAt,
    issuedBy: c.issuedBy, failures: Number(failures),
  };
};

const byExpiry = byKeys<HelpCode>((c) => Date.parse(c.expiresAt), (c) => c.userId);

/**
 * Help codes in Redis, under the {directory} tag with the pupils they belong to (a user's deletion removes
 * theirs: adapters/redis/user-lifecycle.ts). A pupil's code is one hash that Redis also expires by itself; a
 * try is one script, so two tries of one code never both find it.
 */
export function redisHelpCodes({ client, keys, now }: RedisContext) {
  const k = keys.helpCodes;
  const put = defineScript(client, 'lanyardPutHelpCode', PUT);
  const tryCode = defineScript(client, 'lanyardTryHelpCode', TRY);
  const list = defineScript(client, 'lanyardListHelpCodes', LIST);

  const helpCodes: HelpCodes = {
    async putHelpCode(code) {
      const expires = Date.parse(code.expiresAt);
      const done = await put([keys.directory.users, keys.directory.orgs, k.code(code.userId), k.of(code.organisationId)], [
        code.userId, code.organisationId, json(code), code.codeHash, expires, code.failures, nativeTtlMs(expires, now()),
      ]);
      if (done === 0) throw new LanyardError('not_found', `user ${code.userId} does not exist`, 404, true);
      if (done === -1) throw new LanyardError('not_found', `organisation ${code.organisationId} does not exist`, 404, true);
    },
    async findHelpCode(userId, at) {
      const [code, expires, failures] = await client.hmget(k.code(userId), 'code', 'expires', 'failures');
      return code && Number(expires) > Date.parse(at) ? toHelpCode(code, failures!) : undefined;
    },
    async tryHelpCode(userId, codeHash, at, maxFailures) {
      return (await tryCode([k.code(userId)], [codeHash, Date.parse(at), maxFailures])) as HelpCodeOutcome;
    },
    async deleteHelpCode(userId) { return (await client.del(k.code(userId))) === 1; },
    async listHelpCodes(organisationId, at) {
      const flat = (await list([k.of(organisationId)], [k.codePrefix, organisationId, Date.parse(at)])) as string[];
      const out: HelpCode[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) out.push(toHelpCode(flat[i]!, flat[i + 1]!));
      return out.sort(byExpiry);
    },
  };

  const entries: EntryIO<'help_code'> = {
    async *read() {
      const at = new Date(now()).toISOString();
      for (const organisationId of (await client.hkeys(keys.directory.orgs)).sort()) yield* await helpCodes.listHelpCodes(organisationId, at);
    },
    async write(code) {
      if (Date.parse(code.expiresAt) > now()) await helpCodes.putHelpCode(code);
    },
  };

  return { helpCodes, entries };
}
