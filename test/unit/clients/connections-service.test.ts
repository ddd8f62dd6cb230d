import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import type { StoredClient } from '../../../adapters/store.js';
import { ConnectionsService } from '../../../src/clients/connections-service.js';
import { ManualClock } from '../../../src/clock.js';

/** Which apps a school uses, changed by the operator or a school admin (docs/dashboard-and-app-launch.md → Which apps a school uses). */
async function setup(t: { teardown(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-connections-'));
  const clock = new ManualClock(new Date('2027-03-01T00:00:00Z'));
  const store = openSqliteStore(join(dir, 'lanyard.db'), clock);
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });
  const at = clock.now().toISOString();
  const client = (clientId: string, over: Partial<StoredClient> = {}): StoredClient => ({
    clientId, name: clientId.toUpperCase(), redirectUris: [`https://${clientId}.example/cb`], defaultScopes: ['openid'], responseTypes: ['code'],
    source: 'developer', status: 'live', createdAt: at, updatedAt: at, ...over,
  });
  for (const id of ['filed', 'maths', 'reading', 'spelling']) await store.putClient(client(id, id === 'filed' ? { source: 'config' } : {}));
  await store.putClient(client('everywhere', { source: 'config', allOrganisations: true }));
  const school = await store.upsertOrganisation({ slug: 'hill', name: 'Hill School' });
  // The file's app, first, as the file's connections are written at startup.
  await store.putConnection({ organisationId: school.id, clientId: 'filed', position: 0, source: 'config', createdAt: at });
  const order = async () => (await store.listConnections(school.id)).map((c) => `${c.clientId}@${c.position}`);
  return { store, school, order, service: new ConnectionsService(store, clock) };
}

t.test('a school admin\'s connection is the school\'s; a change keeps who made it', async (t) => {
  const { store, school, service } = await setup(t);
  const { connection, replaced } = await service.connect({ organisation: 'hill', clientId: 'maths', source: 'school' });
  t.equal(replaced, false);
  t.match(connection, { source: 'school', position: 1, userTypes: undefined }, 'after the school\'s other apps, for everyone');
  await service.connect({ organisation: school.id, clientId: 'maths', userTypes: ['student'] });
  t.match(await store.findConnection(school.id, 'maths'), { source: 'school', userTypes: ['student'] }, 'the operator changed its types: still the school\'s');
});

t.test('a place renumbers the school\'s order, the file\'s app included: no two apps share a place', async (t) => {
  const { school, order, service } = await setup(t);
  await service.connect({ organisation: 'hill', clientId: 'maths' });
  await service.connect({ organisation: 'hill', clientId: 'reading', position: 1 });
  t.same(await order(), ['reading@0', 'filed@1', 'maths@2'], '--position 1: first, the others after it in their order');
  await service.connect({ organisation: 'hill', clientId: 'spelling', source: 'school' });
  t.same((await service.move(school.id, 'spelling', 2)).map((c) => c.clientId), ['reading', 'spelling', 'filed', 'maths']);
  t.same(await order(), ['reading@0', 'spelling@1', 'filed@2', 'maths@3']);
  await service.move(school.id, 'reading', 99);
  t.same(await order(), ['spelling@0', 'filed@1', 'maths@2', 'reading@3'], 'a place past the end: the last');
  await t.rejects(service.move(school.id, 'filed', 1), { message: /connected to hill by the configuration file: change its place in organisations\[\]\.apps/ }, 'the file\'s app is placed by the file');
  await t.rejects(service.move(school.id, 'nowhere', 1), { message: /"nowhere" is not connected to hill/ });
  await t.rejects(service.move(school.id, 'maths', 0), { message: /a place on the dashboard is 1, 2, 3/ });
});

t.test('disconnecting: the school\'s and the operator\'s may go; the file\'s and an app of every school are the file\'s', async (t) => {
  const { store, school, service } = await setup(t);
  await service.connect({ organisation: 'hill', clientId: 'maths', source: 'school' });
  const gone = await service.disconnect('hill', 'maths');
  t.equal(gone.connection.source, 'school');
  t.equal(await store.findConnection(school.id, 'maths'), undefined);
  await t.rejects(service.disconnect('hill', 'filed'), { message: /by the configuration file: remove it from organisations\[\]\.apps/ });
  await t.rejects(service.disconnect('hill', 'everywhere'), { message: /a configuration-file app of every school: .*"config_apps": "offered"/ });
  await t.rejects(service.disconnect('hill', 'reading'), { message: /"reading" is not connected to hill/ });
});
