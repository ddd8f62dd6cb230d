import {
  CONFIG_REVISION_SETTING, type ConfigRevisions, parseStoredRevision, type RunningRevision, serializeStoredRevision,
} from '../store.js';
import type { RedisContext } from './context.js';
import { defineScript } from './scripts.js';

// KEYS: settings. ARGV: name, expected value ('' for none), next value. Replaces the value only if it is still
// the expected one; 1 if it did.
const SWAP = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if (current or '') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1`;

// KEYS: running revisions. ARGV: instance, report JSON, now. Records the report and removes the expired
// ones (an instance that stopped without saying so), so the hash holds only the instances running now.
const REPORT = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local ok, r = pcall(cjson.decode, all[i + 1])
  if not ok or type(r) ~= 'table' or tonumber(r.expiresAt) == nil or tonumber(r.expiresAt) <= tonumber(ARGV[3]) then
    redis.call('HDEL', KEYS[1], all[i])
  end
end
return 1`;

/** The configuration file's revisions in Redis: the store's in the settings hash, the instances' in a hash of their own. */
export function redisConfigRevisions({ client, keys, now }: RedisContext): ConfigRevisions {
  const swap = defineScript(client, 'lanyardSwapConfigRevision', SWAP);
  const report = defineScript(client, 'lanyardReportRunningRevision', REPORT);
  return {
    async getConfigRevision() { return parseStoredRevision(await client.hget(keys.settings, CONFIG_REVISION_SETTING)); },
    async swapConfigRevision(expected, next) {
      const done = await swap([keys.settings], [CONFIG_REVISION_SETTING, expected ? serializeStoredRevision(expected) : '', serializeStoredRevision(next)]);
      return Number(done) === 1;
    },
    async reportRunningRevision(instance, r, ttlMs) {
      const t = now();
      await report([keys.runningRevisions], [instance, JSON.stringify({ version: r.version, hash: r.hash, expiresAt: t + ttlMs }), t]);
    },
    async listRunningRevisions() {
      const t = now();
      const all = await client.hgetall(keys.runningRevisions);
      const running: RunningRevision[] = [];
      for (const [instance, text] of Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const r = parseReport(text);
        // A report not as an instance writes it (edited by hand) counts as none: it says nothing of a running instance.
        if (r && r.expiresAt > t) running.push({ instance, version: r.version, hash: r.hash, expiresAt: r.expiresAt });
      }
      return running;
    },
    async forgetRunningRevision(instance) { await client.hdel(keys.runningRevisions, instance); },
  };
}

/** An instance's report as stored, or undefined when it is not one. */
function parseReport(text: string): Omit<RunningRevision, 'instance'> | undefined {
  try {
    const r = JSON.parse(text) as Partial<Omit<RunningRevision, 'instance'>>;
    return Number.isInteger(r.version) && typeof r.hash === 'string' && typeof r.expiresAt === 'number'
      ? { version: r.version!, hash: r.hash, expiresAt: r.expiresAt } : undefined;
  } catch {
    return undefined;
  }
}
