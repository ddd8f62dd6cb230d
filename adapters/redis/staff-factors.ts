import { LanyardError } from '../../src/errors.js';
import type { Staff, StaffSecondFactor } from '../store.js';
import type { RedisContext } from './context.js';
import { scanHash } from './scan.js';
import { defineScript, execPipeline } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: users, factors, the user's recovery codes, steps. ARGV: user id, JSON (without the codes and the
// step), the last step ('' for none), then the recovery-code hashes in order. Replaces the user's factor, but
// never lowers the last step accepted (the greater stays); 0 when the user does not exist.
const PUT_FACTOR = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('DEL', KEYS[3])
if #ARGV > 3 then redis.call('RPUSH', KEYS[3], unpack(ARGV, 4)) end
if ARGV[3] ~= '' then
  local last = redis.call('HGET', KEYS[4], ARGV[1])
  if not last or tonumber(last) < tonumber(ARGV[3]) then redis.call('HSET', KEYS[4], ARGV[1], ARGV[3]) end
end
return 1`;

// KEYS: factors, the user's recovery codes, steps. ARGV: user id.
const DELETE_FACTOR = `
local n = redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
redis.call('HDEL', KEYS[3], ARGV[1])
return n`;

// KEYS: factors, steps. ARGV: user id, step. 1 when the step is later than the last one accepted (which it
// becomes), 0 for a replay, an older step, or no factor.
const ADVANCE_STEP = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local last = redis.call('HGET', KEYS[2], ARGV[1])
if last and tonumber(last) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`;

type StoredFactor = Omit<StaffSecondFactor, 'recoveryCodeHashes' | 'lastStep'>;

const json = (f: StaffSecondFactor) => JSON.stringify({ userId: f.userId, totpSecret: f.totpSecret, enabledAt: f.enabledAt } satisfies StoredFactor);

const toFactor = (stored: string, codes: string[], step: string | null): StaffSecondFactor => {
  const f = JSON.parse(stored) as StoredFactor;
  return { userId: f.userId, totpSecret: f.totpSecret, recoveryCodeHashes: codes, enabledAt: f.enabledAt, lastStep: step === null ? undefined : Number(step) };
};

type Factors = Pick<Staff, 'getStaffSecondFactor' | 'putStaffSecondFactor' | 'deleteStaffSecondFactor' | 'spendStaffRecoveryCode' | 'advanceStaffTotpStep'>;

/**
 * Staff second factors in Redis, under the {directory} tag with the people they belong to (a user's deletion
 * removes theirs: adapters/redis/user-lifecycle.ts). The recovery codes are a list, so spending one is one LREM
 * (atomic: two spends of one code remove it once); the last TOTP step is compared and moved by one script.
 */
export function redisStaffFactors({ client, keys }: RedisContext) {
  const k = keys.staff;
  const put = defineScript(client, 'lanyardPutStaffFactor', PUT_FACTOR);
  const del = defineScript(client, 'lanyardDeleteStaffFactor', DELETE_FACTOR);
  const advance = defineScript(client, 'lanyardAdvanceStaffTotpStep', ADVANCE_STEP);

  const factors: Factors = {
    async getStaffSecondFactor(userId) {
      const [stored, codes, step] = (await execPipeline(client.multi()
        .hget(k.factors, userId).lrange(k.recovery(userId), 0, -1).hget(k.steps, userId))) as [string | null, string[], string | null];
      return stored ? toFactor(stored, codes, step) : undefined;
    },
    async putStaffSecondFactor(f) {
      const done = await put([keys.directory.users, k.factors, k.recovery(f.userId), k.steps], [
        f.userId, json(f), f.lastStep ?? '', ...f.recoveryCodeHashes,
      ]);
      if (done === 0) throw new LanyardError('not_found', `user ${f.userId} does not exist`, 404, true);
    },
    async deleteStaffSecondFactor(userId) { return (await del([k.factors, k.recovery(userId), k.steps], [userId])) === 1; },
    async spendStaffRecoveryCode(userId, codeHash) { return (await client.lrem(k.recovery(userId), 1, codeHash)) === 1; },
    async advanceStaffTotpStep(userId, step) { return (await advance([k.factors, k.steps], [userId, step])) === 1; },
  };

  const entries: EntryIO<'staff_factor'> = {
    async *read() {
      for await (const batch of scanHash(client, k.factors)) {
        for (const [userId] of batch) {
          const factor = await factors.getStaffSecondFactor(userId);
          if (factor) yield factor;
        }
      }
    },
    count: () => client.hlen(k.factors),
    write: (f) => factors.putStaffSecondFactor(f),
  };

  return { factors, entries };
}
