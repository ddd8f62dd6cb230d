import type { Test } from 'tap';
import type { AppConnection, StoredClient } from '../../adapters/store.js';
import { type Fresh, START } from './harness.js';

const client = (id: string, over: Partial<StoredClient> = {}): StoredClient => ({
  clientId: id, name: `App ${id}`, redirectUris: [`https://${id}.example/cb`], defaultScopes: ['openid'], responseTypes: ['code'],
  source: 'developer', status: 'live', createdAt: START.toISOString(), updatedAt: START.toISOString(), ...over,
});

const connection = (organisationId: string, clientId: string, over: Partial<AppConnection> = {}): AppConnection => ({
  organisationId, clientId, position: 0, source: 'operator', createdAt: START.toISOString(), ...over,
});

/** Connections: the apps each school uses, in the school's order; they go with a deleted client. */
export function connectionsContract(t: Test, fresh: Fresh): void {
  t.test('connections: put, find and list round-trip every field; userTypes undefined means every user', async (t) => {
    const { store, reopen } = await fresh(t);
    for (const id of ['reading', 'maths', 'library']) await store.putClient(client(id));
    const typed = connection('org-1', 'maths', { position: 1, userTypes: ['student', 'employee'], source: 'config' });
    const open = connection('org-1', 'reading', { position: 2 });
    const first = connection('org-1', 'library', { position: 1, source: 'school' });
    for (const c of [open, typed, first]) await store.putConnection(c);
    await store.putConnection(connection('org-2', 'maths'));
    t.same(await store.findConnection('org-1', 'maths'), typed, 'every field');
    t.equal((await store.findConnection('org-1', 'library'))?.source, 'school', 'a school admin\'s connection keeps its source');
    const found = await store.findConnection('org-1', 'reading');
    t.same(found, open);
    t.equal(found?.userTypes, undefined, 'no user types: undefined, not null');
    t.same((await store.listConnections('org-1')).map((c) => c.clientId), ['library', 'maths', 'reading'],
      'by position, then client_id');
    t.same(await store.listConnections('org-3'), [], 'an organisation without any');
    t.same((await store.listClientConnections('maths')).map((c) => c.organisationId), ['org-1', 'org-2'], 'a client\'s, by organisation');
    t.equal(await store.findConnection('org-2', 'reading'), undefined, 'not connected there');
    if (reopen) t.same(await (await reopen()).listConnections('org-1'), await store.listConnections('org-1'), 'another instance reads the same');
  });

  t.test('connections: a put replaces by organisation and client; delete removes one', async (t) => {
    const { store } = await fresh(t);
    await store.putClient(client('maths'));
    await store.putConnection(connection('org-1', 'maths', { userTypes: ['student'] }));
    const replaced = connection('org-1', 'maths', { position: 5 });
    await store.putConnection(replaced);
    t.same(await store.listConnections('org-1'), [replaced], 'one connection, replaced whole (user types cleared)');
    t.equal(await store.deleteConnection('org-1', 'maths'), true);
    t.equal(await store.deleteConnection('org-1', 'maths'), false, 'already gone');
    t.same(await store.listConnections('org-1'), []);
    t.same(await store.listClientConnections('maths'), [], 'both directions');
  });

  t.test('connections: refused for a client that does not exist', async (t) => {
    const { store } = await fresh(t);
    await t.rejects(store.putConnection(connection('org-1', 'ghost')), { statusCode: 404 } as unknown as Error, 'no connection to a missing client');
    t.same(await store.listConnections('org-1'), []);
  });

  t.test('connections: deleting a client removes its connections everywhere, and only its', async (t) => {
    const { store } = await fresh(t);
    await store.putClient(client('maths'));
    await store.putClient(client('reading'));
    await store.putConnection(connection('org-1', 'maths'));
    await store.putConnection(connection('org-2', 'maths'));
    await store.putConnection(connection('org-1', 'reading'));
    t.equal(await store.deleteClient('maths'), true);
    t.same((await store.listConnections('org-1')).map((c) => c.clientId), ['reading'], 'the other app stays');
    t.same(await store.listConnections('org-2'), []);
    await store.putClient(client('maths'));
    t.same(await store.listClientConnections('maths'), [], 'a client registered again under the id starts unconnected');
  });

  t.test('connections: a client\'s launch address and "every school" flag round-trip', async (t) => {
    const { store } = await fresh(t);
    const launched = client('launch', { initiateLoginUri: 'https://launch.example/login', allOrganisations: true, source: 'config' });
    await store.putClient(launched);
    t.same(await store.findClient('launch'), launched);
    await store.putClient(client('launch'));
    const cleared = await store.findClient('launch');
    t.equal(cleared?.initiateLoginUri, undefined, 'cleared: undefined');
    t.equal(cleared?.allOrganisations, undefined, 'cleared: undefined');
  });
}
