import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { withStore } from '../../adapters/open-store.js';
import type { User } from '../../adapters/store.js';
import { systemClock } from '../../src/clock.js';
import type { ConfigFile } from '../../src/config/schema.js';
import { lanyard } from '../helpers/cli.js';
import { demoConfig } from '../helpers/config-file.js';
import { startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';

/**
 * A user record that leaves an optional field out keeps what the store holds; only `null` clears it
 * (docs/configuration.md → Configuration). A record without `roster_id` used to erase the stored one.
 * Through the real `lanyard import`, on SQLite and on Redis, and through a restart with the configuration file.
 */

/** A user record as a file gives it: a field is a value, null, or left out. */
type Seed = { [field: string]: string | null };

const ADA = { username: 'ada', given_name: 'Ada', family_name: 'Jones', type: 'student' };
const FULL: Seed = { ...ADA, roster_id: 't1', email: 'ada@river.example', google_email: 'ada@gmail.example', microsoft_email: 'ada@outlook.example' };

const organisations = (user: Seed) => [{ slug: 'river-school', name: 'River School', users: [user] }];

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-import-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const fields = (u: User | undefined) => u && { rosterId: u.rosterId, email: u.email, googleEmail: u.googleEmail, microsoftEmail: u.microsoftEmail };

const STORED = { rosterId: 't1', email: 'ada@river.example', googleEmail: 'ada@gmail.example', microsoftEmail: 'ada@outlook.example' };
const CLEARED = { rosterId: undefined, email: undefined, googleEmail: undefined, microsoftEmail: undefined };

async function importCase(t: Test, env: { [k: string]: string; LANYARD_STORE: string }, redisPrefix?: string) {
  const dir = tempDir(t);
  const file = join(dir, 'people.json');
  const importing = async (user: Seed) => {
    writeFileSync(file, JSON.stringify({ clients: [], organisations: organisations(user) }));
    const run = await lanyard(['import', file], env);
    t.equal(run.code, 0, run.stderr);
    return withStore(env.LANYARD_STORE, systemClock, async (store) => {
      const org = (await store.findOrganisation('river-school'))!;
      return store.findUserByUsername(org.id, 'ada');
    }, redisPrefix ? { redisPrefix } : {});
  };
  const first = await importing(FULL);
  t.same(fields(first), STORED, 'the first import stores every field');

  const without = await importing({ ...ADA });
  t.same(fields(without), STORED, 'a record without roster_id, email, google_email, microsoft_email keeps them all');
  t.equal(without?.id, first?.id, 'the same user');

  const renamed = await importing({ ...ADA, given_name: 'Adaline' });
  t.equal(renamed?.givenName, 'Adaline', 'a field the record gives is updated');
  t.same(fields(renamed), STORED, 'the rest kept');

  const cleared = await importing({ ...ADA, roster_id: null, email: null, google_email: null, microsoft_email: null });
  t.same(fields(cleared), CLEARED, 'null clears each of them');

  const again = await importing({ ...ADA, roster_id: 't2', email: null });
  t.same(fields(again), { ...CLEARED, rosterId: 't2' }, 'and a later record sets one again');
}

t.test('`lanyard import` on SQLite: an absent field is kept, null clears it', async (t) => {
  const dir = tempDir(t);
  await importCase(t, { LANYARD_STORE: `sqlite:${join(dir, 'lanyard.db')}` });
});

t.test('`lanyard import` on Redis: an absent field is kept, null clears it', async (t) => {
  const redis = await startRedis(t);
  const env = redisStoreEnv(redis.url, 'import-absent');
  await importCase(t, env, env.LANYARD_REDIS_PREFIX);
});

t.test('the configuration file at a restart: an absent field is kept, null clears it', async (t) => {
  const dir = tempDir(t);
  const configPath = join(dir, 'config.json');
  const restart = async (user: Seed) => {
    const config: ConfigFile = demoConfig();
    writeFileSync(configPath, JSON.stringify({ ...config, organisations: [...(config.organisations ?? []), ...organisations(user)] }));
    const running = await startLanyard(t, { dir, env: { LANYARD_CONFIG: configPath } });
    const org = (await running.store.findOrganisation('river-school'))!;
    const user_ = await running.store.findUserByUsername(org.id, 'ada');
    await running.stop();
    return user_;
  };
  t.same(fields(await restart(FULL)), STORED, 'first start: the file\'s fields');
  t.same(fields(await restart({ ...ADA })), STORED, 'the fields left out of the file: kept at the next start');
  t.same(fields(await restart({ ...ADA, roster_id: null, email: null, google_email: null, microsoft_email: null })), CLEARED,
    'null in the file: cleared at the next start');
});
