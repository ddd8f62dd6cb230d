import type { Test } from 'tap';
import type { StoredClient, StoredClientSecret } from '../../adapters/store.js';
import { type Fresh, START } from './harness.js';

const client = (id: string, over: Partial<StoredClient> = {}): StoredClient => ({
  clientId: id,
  name: `App ${id}`,
  redirectUris: [`https://${id}.example/cb`],
  defaultScopes: ['openid'],
  responseTypes: ['code'],
  source: 'developer',
  status: 'development',
  createdAt: START.toISOString(),
  updatedAt: START.toISOString(),
  ...over,
});

const secret = (clientId: string, id: string, over: Partial<StoredClientSecret> = {}): StoredClientSecret => ({
  id, clientId, hash: `sha256:${id}`, label: `label ${id}`, createdAt: START.toISOString(), ...over,
});

/** Clients: settings and many secrets, live for every instance on the store. */
export function clientsContract(t: Test, fresh: Fresh): void {
  t.test('clients: put, find and list round-trip every field; optional ones are undefined (not null)', async (t) => {
    const { store } = await fresh(t);
    const full = client('b-app', {
      logoutUrl: 'https://b.example/bye', ownerId: 'd123', responseTypes: ['code', 'id_token'], source: 'config', status: 'live',
      redirectUris: ['https://b.example/cb', 'http://127.0.0.1:8080/cb'], defaultScopes: ['openid', 'api'],
    });
    const bare = client('a-app');
    await store.putClient(full);
    await store.putClient(bare);
    t.same(await store.findClient('b-app'), full, 'every field');
    const found = await store.findClient('a-app');
    t.same(found, bare, 'bare client');
    t.equal(found?.logoutUrl, undefined, 'no logout_url: undefined');
    t.notOk(found && 'logoutUrl' in found && found.logoutUrl === null, 'never null');
    t.same((await store.listClients()).map((c) => c.clientId), ['a-app', 'b-app'], 'listed by client_id');
    t.equal(await store.findClient('nope'), undefined, 'unknown client');
  });

  t.test('clients: the developer-area details round-trip, and a replacement clears the ones left out', async (t) => {
    const { store, reopen } = await fresh(t);
    const detailed = client('app', {
      status: 'pending', ownerId: 'dev_1', description: 'Reading practice for year 2 — «ünïcode» too',
      homepageUrl: 'https://app.example/', logoUrl: 'https://app.example/logo.png', reviewNote: 'Needs a privacy policy link',
    });
    await store.putClient(detailed);
    t.same(await store.findClient('app'), detailed, 'every detail');
    t.same((await store.listClients())[0], detailed, 'listed with its details');
    if (reopen) t.same(await (await reopen()).findClient('app'), detailed, 'another instance reads the same');
    const cleared = client('app', { status: 'live', description: 'Reading practice' });
    await store.putClient(cleared);
    const found = await store.findClient('app');
    t.same(found, cleared, 'replaced whole');
    t.equal(found?.homepageUrl, undefined, 'homepage cleared: undefined');
    t.equal(found?.logoUrl, undefined, 'logo cleared: undefined');
    t.equal(found?.reviewNote, undefined, 'review note cleared: undefined');
    for (const status of ['development', 'pending', 'live'] as const) {
      await store.putClient(client('app', { status }));
      t.equal((await store.findClient('app'))?.status, status, `status ${status}`);
    }
  });

  t.test('clients: putClient replaces the settings and leaves the secrets alone', async (t) => {
    const { store } = await fresh(t);
    await store.putClient(client('app', { logoutUrl: 'https://app.example/bye' }));
    await store.putClientSecret(secret('app', 's1'));
    const changed = client('app', { redirectUris: ['https://app.example/new'], name: 'Renamed', updatedAt: '2027-02-01T00:00:00.000Z' });
    await store.putClient(changed);
    t.same(await store.findClient('app'), changed, 'replaced whole (logout_url cleared)');
    t.equal((await store.listClientSecrets('app')).length, 1, 'secrets kept');
  });

  t.test('clients: many secrets per client, oldest first, each removable alone', async (t) => {
    const { store } = await fresh(t);
    await store.putClient(client('app'));
    await store.putClient(client('other'));
    const s2 = secret('app', 's2', { createdAt: '2027-01-16T00:00:00.000Z', hint: '…x9Q', expiresAt: '2027-06-01T00:00:00.000Z' });
    const s1 = secret('app', 's1');
    await store.putClientSecret(s2);
    await store.putClientSecret(s1);
    await store.putClientSecret(secret('other', 's1', { hash: 'sha256:other' }));
    t.same(await store.listClientSecrets('app'), [s1, s2], 'both, oldest first, every field');
    t.equal((await store.listClientSecrets('app'))[0]?.lastUsedAt, undefined, 'never used: undefined');
    await store.touchClientSecret('app', 's1', '2027-01-20T00:00:00.000Z');
    t.equal((await store.listClientSecrets('app'))[0]?.lastUsedAt, '2027-01-20T00:00:00.000Z', 'last used recorded');
    t.equal(await store.deleteClientSecret('app', 's1'), true, 'deleted');
    t.equal(await store.deleteClientSecret('app', 's1'), false, 'already gone');
    t.same((await store.listClientSecrets('app')).map((s) => s.id), ['s2'], 'the other secret stays');
    t.same((await store.listClientSecrets('other')).map((s) => s.hash), ['sha256:other'], 'same secret id on another client untouched');
  });

  t.test('clients: a secret needs its client; deleting a client removes its secrets', async (t) => {
    const { store } = await fresh(t);
    await t.rejects(store.putClientSecret(secret('ghost', 's1')), 'no secret for a missing client');
    await store.putClient(client('app'));
    await store.putClientSecret(secret('app', 's1'));
    t.equal(await store.deleteClient('app'), true, 'deleted');
    t.equal(await store.deleteClient('app'), false, 'already gone');
    t.equal(await store.findClient('app'), undefined, 'not found');
    t.same(await store.listClientSecrets('app'), [], 'secrets gone with it');
    await store.putClient(client('app'));
    t.same(await store.listClientSecrets('app'), [], 'a client created again starts without the old secrets');
  });

  t.test('clients: a change on one instance is seen by another at once', async (t) => {
    const { store, reopen } = await fresh(t);
    if (!reopen) return t.pass('no durable location: a single instance only');
    const other = await reopen();
    await store.putClient(client('app'));
    await store.putClientSecret(secret('app', 's1'));
    t.same((await other.findClient('app'))?.redirectUris, ['https://app.example/cb'], 'client seen');
    await store.putClient(client('app', { redirectUris: ['https://app.example/cb', 'https://app.example/cb2'] }));
    t.equal((await other.findClient('app'))?.redirectUris.length, 2, 'new callback URL seen');
    await other.deleteClientSecret('app', 's1');
    t.same(await store.listClientSecrets('app'), [], 'secret revoked on the other instance is gone here');
  });
}
