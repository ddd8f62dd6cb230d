import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import t from 'tap';
import { systemClock } from '../../src/clock.js';
import { initStoreCommand } from '../../src/cli/run-store.js';
import { loadConfig } from '../../src/config/config.js';
import { openServices } from '../../src/startup/services.js';
import { lanyard as runLanyard } from '../helpers/cli.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { pooledKeyPair } from '../helpers/test-keys.js';

/**
 * A store emptied under running Lanyard (docs/storage.md → The store's identity): a Redis restarted empty
 * (FLUSHALL), SQLite rows deleted. /readyz answers 503 naming the cause, no signing key is minted, an error
 * line says why, an instance starting on it refuses; `lanyard store init` makes it ready again.
 */

const readyz = async (lanyard: Lanyard) => {
  const res = await fetch(`${lanyard.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const logged = (lanyard: Lanyard, event: string) =>
  lanyard.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === event);
const jwksKids = async (lanyard: Lanyard) =>
  ((await (await fetch(`${lanyard.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);

t.test('Redis restarted empty (FLUSHALL) under a running Lanyard: not ready, no key minted, starts refused; store init: ready again', async (t) => {
  const redis = await startRedis(t, { aof: false });
  const env = redisStoreEnv(redis.url, 'identity');
  const lanyard = await startLanyard(t, { env });
  t.match(await readyz(lanyard), { status: 200, body: { status: 'ready', store: 'redis' } }, 'ready on a new store');
  const kidsBefore = await jwksKids(lanyard);

  const admin = new Redis({ host: redis.host, port: redis.port, lazyConnect: true, maxRetriesPerRequest: 1 });
  await admin.connect();
  t.teardown(() => admin.disconnect());
  await admin.flushall();

  const lost = await readyz(lanyard);
  t.equal(lost.status, 503, '/readyz: 503');
  t.match(lost.body, { status: 'unavailable', store: 'redis', cause: 'identity_missing', error_description: /emptied.*lanyard store init/ }, 'naming the cause');
  await lanyard.app.lanyard.keyRotation.tick();
  t.same(await lanyard.store.listKeys(), [], 'no signing key minted (the rotation tick ran)');
  t.same(await jwksKids(lanyard), kidsBefore, 'the key set this instance publishes is unchanged');
  const errors = logged(lanyard, 'store.identity_lost');
  t.equal(errors.length, 1, 'one error line');
  t.match(errors[0], { level: 50, cause: 'identity_missing' });
  t.notOk(lanyard.logs.some((l) => l.includes('"key.missing"')), 'no "generating one" warning');

  const config = loadConfig({ PORT: '1', ...env });
  await t.rejects(openServices(config, systemClock, pooledKeyPair), { code: 'store_identity_lost', message: /lanyard store init/ },
    'a new instance on the emptied store refuses to start');
  t.same(await lanyard.store.listKeys(), [], 'and mints nothing');

  const init = await runLanyard(['store', 'init'], env);
  t.equal(init.code, 0, `store init: exit 0 (${init.stderr})`);
  t.match(init.stdout, /recorded loss \(identity_missing[\s\S]*store started anew: identity \S+, signing key \S+/);
  t.match(await readyz(lanyard), { status: 200, body: { status: 'ready', store: 'redis' } }, 'ready again');
  t.ok(await lanyard.store.findOrganisation('demo-school'), 'the configuration file is in the store again');
  t.ok(await lanyard.store.findClient('demo-app'), 'its clients too');
  await lanyard.app.lanyard.keyRotation.tick();
  const [key] = await lanyard.store.listKeys();
  t.same(await jwksKids(lanyard), [key!.kid], 'publishing the key store init made');
  t.equal(logged(lanyard, 'store.identity_confirmed').length, 1, 'and says so');
  const again = await runLanyard(['store', 'init'], env);
  t.match(again.stdout, /nothing to do/, 'store init on an intact store changes nothing');
});

t.test('SQLite rows deleted under a running Lanyard: not ready, no key minted; fuzzed /readyz never 5xx but its 503; store init: ready again', async (t) => {
  const lanyard = await startLanyard(t);
  const fuzz = async (allowed: number) => {
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 150; i += 1) {
      const junk = randomBytes(1 + (i % 40)).toString(i % 2 ? 'base64' : 'latin1');
      const method = methods[i % methods.length]!;
      const res = await fetch(`${lanyard.url}/readyz?${encodeURIComponent(junk)}=${i % 3 ? '%ff%fe' : 'x'.repeat(i * 10)}`, {
        method,
        headers: { accept: i % 2 ? 'text/html' : '*/*', 'x-junk': Buffer.from(junk, 'latin1').toString('base64'), ...(method === 'GET' || method === 'HEAD' ? {} : { 'content-type': 'application/json' }) },
        ...(method === 'GET' || method === 'HEAD' ? {} : { body: junk }),
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    return [...statuses.keys()].filter((s) => s >= 500 && s !== allowed);
  };
  t.same(await fuzz(0), [], '150 malformed requests to /readyz while intact: no 5xx');

  const db = new Database(join(lanyard.dir, 'lanyard.db'));
  t.teardown(() => db.close());
  db.prepare('DELETE FROM signing_keys').run();

  const lost = await readyz(lanyard);
  t.equal(lost.status, 503, '/readyz: 503');
  t.match(lost.body, { store: 'sqlite', cause: 'keys_missing', error_description: /signing keys are gone/ });
  await lanyard.app.lanyard.keyRotation.tick();
  t.equal((db.prepare('SELECT count(*) AS n FROM signing_keys').get() as { n: number }).n, 0, 'no signing key minted');
  t.match(logged(lanyard, 'store.identity_lost'), [{ cause: 'keys_missing' }]);
  t.same(await fuzz(503), [], '150 malformed requests to /readyz while lost: 503 only, never another 5xx');

  db.prepare(`DELETE FROM settings WHERE name = 'store-identity'`).run();
  t.match((await readyz(lanyard)).body, { cause: 'identity_missing' }, 'the identity deleted too: named');
  t.equal(logged(lanyard, 'store.identity_lost').length, 2, 'a second line for the new cause');

  await initStoreCommand(lanyard.config, systemClock);
  t.equal((await readyz(lanyard)).status, 200, 'ready again after store init');
});

t.test('LANYARD_STORE_INIT=operator: an empty store is never started anew by an instance, only by `lanyard store init`', async (t) => {
  const redis = await startRedis(t, { aof: false });
  const env = { ...redisStoreEnv(redis.url, 'init'), LANYARD_STORE_INIT: 'operator' };
  const config = loadConfig({ PORT: '1', ...env });
  t.equal(config.storeInit, 'operator');
  await t.rejects(openServices(config, systemClock, pooledKeyPair),
    { code: 'store_identity_lost', message: /holds no identity and no signing key[\s\S]*lanyard store init/ }, 'an empty store: the instance refuses to start');
  const admin = new Redis({ host: redis.host, port: redis.port, lazyConnect: true, maxRetriesPerRequest: 1 });
  await admin.connect();
  t.teardown(() => admin.disconnect());
  t.same(await admin.keys(`${env.LANYARD_REDIS_PREFIX}:*key*`), [], 'and wrote no signing key');

  const init = await runLanyard(['store', 'init'], env);
  t.equal(init.code, 0, `store init: exit 0 (${init.stderr})`);
  const lanyard = await startLanyard(t, { env });
  t.match(await readyz(lanyard), { status: 200, body: { status: 'ready' } }, 'after store init, instances start');
  await lanyard.stop();

  // Every instance stopped, the store emptied (a Redis restarted without its data): refused, not taken for new.
  await admin.flushall();
  await t.rejects(openServices(config, systemClock, pooledKeyPair), { code: 'store_identity_lost' }, 'emptied while no instance ran: refused');
  t.same(await admin.dbsize(), 0, 'nothing written');

  t.match(loadConfig({ PORT: '1', ...env, LANYARD_STORE_INIT: 'auto' }), { storeInit: 'auto' });
  t.throws(() => loadConfig({ PORT: '1', ...env, LANYARD_STORE_INIT: 'sometimes' }), /LANYARD_STORE_INIT: "sometimes" is not auto or operator/, 'a clear config error');
});
