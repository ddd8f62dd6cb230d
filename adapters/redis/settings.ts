import type { Settings } from '../store.js';
import { compareBinary } from '../store/collation.js';
import type { RedisContext } from './context.js';
import { defineScript } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: settings. ARGV: name, value. Stores the value unless the name has one (SET NX), returns the stored one.
const GET_OR_CREATE = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then return ARGV[2] end
return redis.call('HGET', KEYS[1], ARGV[1])`;

/** Named values in one Redis hash. */
export function redisSettings({ client, keys }: RedisContext) {
  const getOrCreate = defineScript(client, 'lanyardGetOrCreateSetting', GET_OR_CREATE);
  const get = async (name: string) => (await client.hget(keys.settings, name)) ?? undefined;

  const settings: Settings = {
    async getOrCreateSetting(name, create) {
      return (await get(name)) ?? String(await getOrCreate([keys.settings], [name, create()]));
    },
    getSetting: get,
    async putSetting(name, value) { await client.hset(keys.settings, name, value); },
    async deleteSetting(name) { await client.hdel(keys.settings, name); },
  };

  const entries: EntryIO<'setting'> = {
    async *read() {
      const all = Object.entries(await client.hgetall(keys.settings)).sort(([a], [b]) => compareBinary(a, b));
      yield* all.map(([name, value]) => ({ name, value }));
    },
    count: () => client.hlen(keys.settings),
    write: ({ name, value }) => settings.putSetting(name, value),
  };

  return { settings, entries };
}
