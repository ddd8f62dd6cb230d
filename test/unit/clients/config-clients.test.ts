import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { ClientRegistry } from '../../../src/clients/client-registry.js';
import { hashClientSecret } from '../../../src/clients/client-secret.js';
import { everySchoolClientIds, offeredClientIds, syncConfigClients } from '../../../src/clients/config-clients.js';
import { ManualClock } from '../../../src/clock.js';
import type { ClientConfig } from '../../../src/config/schema.js';

/** Config-file clients are written to the store at startup, and the registry reads every client from it. */
function setup(t: { teardown(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-clients-'));
  const clock = new ManualClock(new Date('2027-03-01T00:00:00Z'));
  const store = openSqliteStore(join(dir, 'lanyard.db'), clock);
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });
  return { store, clock, registry: new ClientRegistry(store, clock, Buffer.alloc(32, 1)) };
}

const APP: ClientConfig = {
  client_id: 'app', name: 'App', secrets: ['first-plaintext-secret-of-32-chars!!'], secret_hashes: [hashClientSecret('hashed-secret-value-of-32-characters')],
  redirect_uris: ['https://app.example/cb'], default_scopes: ['openid'], logout_url: 'https://app.example/bye',
};

t.test('config clients are written to the store, marked as configuration, with their secrets hashed', async (t) => {
  const { store, registry } = setup(t);
  t.same(await syncConfigClients(store, [APP], new ManualClock()), { written: ['app'], removed: [] });
  t.match(await store.findClient('app'), { name: 'App', source: 'config', status: 'live', redirectUris: APP.redirect_uris, defaultScopes: ['openid'], logoutUrl: APP.logout_url, responseTypes: ['code'] });
  const secrets = await store.listClientSecrets('app');
  t.equal(secrets.length, 2, 'both secrets');
  t.notOk(JSON.stringify(secrets).includes('first-plaintext-secret'), 'no plaintext secret is stored');
  t.ok(await registry.verifySecret('app', 'first-plaintext-secret-of-32-chars!!'), 'the plaintext one verifies');
  t.ok(await registry.verifySecret('app', 'hashed-secret-value-of-32-characters'), 'the hashed one verifies');
  t.notOk(await registry.verifySecret('app', 'wrong'), 'a wrong one does not');
  t.notOk(await registry.verifySecret('nope', 'first-plaintext-secret-of-32-chars!!'), 'nor for another client');
});

t.test('a second start with the same file changes nothing; a changed file is applied; removed clients and secrets go', async (t) => {
  const { store } = setup(t);
  await syncConfigClients(store, [APP, { ...APP, client_id: 'gone' }], new ManualClock());
  const created = (await store.findClient('app'))!.createdAt;
  t.same(await syncConfigClients(store, [APP, { ...APP, client_id: 'gone' }], new ManualClock(Date.now() + 1000)), { written: [], removed: [] }, 'unchanged: nothing written');
  await store.putClient({ clientId: 'dev-app', name: 'Dev', redirectUris: ['https://d.example/cb'], defaultScopes: [], responseTypes: ['code'], source: 'developer', status: 'development', createdAt: created, updatedAt: created });
  await store.putClientSecret({ id: 'added-elsewhere', clientId: 'app', hash: hashClientSecret('x'.repeat(40)), label: 'rotation', createdAt: created });
  const changed = { ...APP, redirect_uris: ['https://app.example/cb', 'https://app.example/cb2'], secrets: [] };
  const result = await syncConfigClients(store, [changed], new ManualClock(Date.now() + 2000));
  t.same(result, { written: ['app'], removed: ['gone'] });
  t.equal((await store.findClient('app'))?.redirectUris.length, 2, 'new callback URL applied');
  t.equal((await store.findClient('app'))?.createdAt, created, 'created time kept');
  t.equal(await store.findClient('gone'), undefined, 'a config client no longer in the file is removed');
  t.ok(await store.findClient('dev-app'), 'a developer-area client is never touched');
  t.same((await store.listClientSecrets('app')).map((s) => s.label).sort(), ['from the configuration file', 'rotation'], 'the removed file secret is gone; one added elsewhere stays');
});

t.test('config_apps: an app no school lists is offered (the default) or connected to every school; one a school lists is that school\'s', async (t) => {
  const { store, clock } = setup(t);
  const listed: ClientConfig = { ...APP, client_id: 'listed' };
  const schools = [{ slug: 's', name: 'S', apps: ['listed'] }];
  await syncConfigClients(store, [APP, listed], clock, schools);
  t.equal((await store.findClient('app'))?.allOrganisations, undefined, 'offered by default: of no school until one connects it');
  t.equal((await store.findClient('listed'))?.allOrganisations, undefined);
  t.same(await syncConfigClients(store, [APP, listed], clock, schools, 'every_school'), { written: ['app'], removed: [] }, 'every_school rewrites the unlisted app');
  t.equal((await store.findClient('app'))?.allOrganisations, true, 'every_school: of every school, as before the console');
  t.equal((await store.findClient('listed'))?.allOrganisations, undefined, 'a listed app stays its schools\'');
  await syncConfigClients(store, [APP, listed], clock, schools, 'offered');
  t.equal((await store.findClient('app'))?.allOrganisations, undefined, 'offered again');
  const file = { clients: [APP, listed], organisations: schools };
  t.same([...offeredClientIds(file)], ['app'], 'the console offers the unlisted app');
  t.same([...everySchoolClientIds(file)], [], 'and it is of no school by itself');
  t.same([...offeredClientIds({ ...file, config_apps: 'every_school' })], [], 'every_school offers nothing');
  t.same([...everySchoolClientIds({ ...file, config_apps: 'every_school' })], ['app']);
});

t.test('a config client_id already taken by a developer-area app stops startup and leaves the app alone', async (t) => {
  const { store } = setup(t);
  const at = '2027-01-01T00:00:00.000Z';
  await store.putClient({ clientId: 'app', name: 'Theirs', redirectUris: ['https://d.example/cb'], defaultScopes: [], responseTypes: ['code'], source: 'developer', status: 'live', createdAt: at, updatedAt: at });
  await t.rejects(syncConfigClients(store, [APP], new ManualClock()), { name: 'ConfigError', message: /\/clients\/0\/client_id: "app" is already registered in the developer area/ });
  t.equal((await store.findClient('app'))?.name, 'Theirs', 'the developer app is untouched');
  t.same(await store.listClientSecrets('app'), [], 'no secret added to it');
});

t.test('an expired secret no longer authenticates; use is recorded at most once a minute', async (t) => {
  const { store, clock, registry } = setup(t);
  await syncConfigClients(store, [{ ...APP, secrets: [] }], clock);
  await store.putClientSecret({ id: 'short', clientId: 'app', hash: hashClientSecret('s'.repeat(40)), label: 'short', createdAt: clock.now().toISOString(), expiresAt: '2027-03-02T00:00:00Z' });
  t.ok(await registry.verifySecret('app', 's'.repeat(40)), 'valid before its expiry');
  const used = (await store.listClientSecrets('app')).find((s) => s.id === 'short')!.lastUsedAt;
  t.equal(used, clock.now().toISOString(), 'last used recorded');
  clock.advance(30_000);
  await registry.verifySecret('app', 's'.repeat(40));
  t.equal((await store.listClientSecrets('app')).find((s) => s.id === 'short')!.lastUsedAt, used, 'not rewritten within the minute');
  clock.set(new Date('2027-03-02T00:00:00Z'));
  t.notOk(await registry.verifySecret('app', 's'.repeat(40)), 'refused from its expiry on');
});

t.test('the internal secret is derived from the shared key: the same on every instance, different per client', async (t) => {
  const { store, clock } = setup(t);
  const a = new ClientRegistry(store, clock, Buffer.alloc(32, 9));
  const b = new ClientRegistry(store, clock, Buffer.alloc(32, 9));
  t.equal(a.internalSecret('app'), b.internalSecret('app'), 'same key, same secret');
  t.not(a.internalSecret('app'), a.internalSecret('other'), 'per client');
  t.not(a.internalSecret('app'), new ClientRegistry(store, clock, Buffer.alloc(32, 8)).internalSecret('app'), 'another key, another secret');
});
