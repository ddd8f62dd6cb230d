import t from 'tap';
import type { AppConnection, Organisation, StoredClient } from '../../../adapters/store.js';
import { availabilityOf, mayClientSignIn, organisationAllowed, sandboxOnly, schoolRefusal } from '../../../src/clients/app-availability.js';

/**
 * The rule of docs/developer-area.md: development and pending apps sign in only the sandbox school's users, and the
 * sandbox school's users (whose credentials every developer sees) sign in to nothing else.
 */

const sandbox: Organisation = { id: 'o100000000000001', slug: 'sandbox', name: 'Lanyard Sandbox School', login: { methods: ['password'], badgeRequiresEmoji: false } };
const school: Organisation = { id: 'o200000000000002', slug: 'demo-school', name: 'Demo School', login: { methods: ['password'], badgeRequiresEmoji: false } };
const client = (status: StoredClient['status'], source: StoredClient['source'] = 'developer', over: Partial<StoredClient> = {}) =>
  ({ clientId: `${source}-${status}`, status, source, ...over }) as StoredClient;

t.test('development and pending apps: the sandbox school only; live, config and built-in clients: every real school', async (t) => {
  for (const status of ['development', 'pending'] as const) {
    t.ok(sandboxOnly(client(status)), `${status}: held to the sandbox`);
    t.ok(organisationAllowed(client(status), sandbox.id, sandbox), `${status}: the sandbox school`);
    t.notOk(organisationAllowed(client(status), school.id, sandbox), `${status}: not a real school`);
    t.notOk(organisationAllowed(client(status), school.id, sandbox), `${status}: not a real school's user`);
    t.notOk(organisationAllowed(client(status), sandbox.id, undefined), `${status}: no one when the sandbox school is missing`);
  }
  for (const c of [client('live'), client('live', 'config'), client('live', 'builtin')]) {
    t.notOk(sandboxOnly(c), `${c.source} live: every real school`);
    t.ok(organisationAllowed(c, school.id, sandbox));
    t.notOk(organisationAllowed(c, sandbox.id, sandbox), `${c.source} live: never the sandbox school's users`);
    t.ok(organisationAllowed(c, school.id, undefined), `${c.source} live: every school when there is no sandbox school`);
  }
  t.ok(sandboxOnly(undefined), 'an unknown client fails closed');
});

/** The sources the rule reads, from maps: clients by id, and connections by `${organisationId} ${clientId}`. */
function sources(clients: StoredClient[], connections: AppConnection[] = []) {
  const byId = new Map(clients.map((c) => [c.clientId, c]));
  const connected = new Map(connections.map((c) => [`${c.organisationId} ${c.clientId}`, c]));
  return {
    clients: { get: async (id: string) => byId.get(id) },
    store: {
      findOrganisation: async (slug: string) => (slug === 'sandbox' ? sandbox : undefined),
      findConnection: async (organisationId: string, clientId: string) => connected.get(`${organisationId} ${clientId}`),
    },
  };
}

const connection = (clientId: string, userTypes?: string[]): AppConnection =>
  ({ organisationId: school.id, clientId, userTypes, position: 0, source: 'operator', createdAt: '2027-01-01T00:00:00.000Z' });

t.test('mayClientSignIn reads the client, the sandbox school and the connection from the store', async (t) => {
  const dev = { ...client('development'), clientId: 'dev' };
  const live = { ...client('live'), clientId: 'live' };
  const src = sources([dev, live], [connection('live')]);
  t.ok(await mayClientSignIn(src, 'dev', { organisationId: sandbox.id, type: 'student' }));
  t.notOk(await mayClientSignIn(src, 'dev', { organisationId: school.id, type: 'student' }));
  t.ok(await mayClientSignIn(src, 'live', { organisationId: school.id, type: 'student' }));
  t.notOk(await mayClientSignIn(src, 'live', { organisationId: sandbox.id, type: 'student' }), 'a live app never signs in a sandbox user');
  t.notOk(await mayClientSignIn(src, 'gone', { organisationId: school.id, type: 'student' }), 'an unknown client is held to the sandbox school');
  t.notOk(await mayClientSignIn(src, 'live', undefined), 'no user: no');
});

t.test('a live app signs in a real school\'s users only where the school connected it, for the types it chose (docs/dashboard-and-app-launch.md)', async (t) => {
  const apps = {
    unconnected: client('live', 'developer', { clientId: 'unconnected' }),
    anyone: client('live', 'developer', { clientId: 'anyone' }),
    pupils: client('live', 'developer', { clientId: 'pupils' }),
    listedConfig: client('live', 'config', { clientId: 'listed-config' }),
    everywhere: client('live', 'config', { clientId: 'everywhere', allOrganisations: true }),
    builtin: client('live', 'builtin', { clientId: 'lanyard' }),
  };
  const src = sources(Object.values(apps), [connection('anyone'), connection('pupils', ['student'])]);
  const refusal = async (c: StoredClient, type?: string) => schoolRefusal(src, await availabilityOf(src, c.clientId), school.id, type);
  t.equal(await refusal(apps.unconnected), 'not_connected', 'a live developer app the school did not connect');
  t.equal(await refusal(apps.listedConfig), 'not_connected', 'a config app listed by other schools only');
  t.equal(await refusal(apps.anyone, 'employee'), undefined, 'connected for every type');
  t.equal(await refusal(apps.pupils), undefined, 'connected for pupils: the school step (type not known yet) lets it through');
  t.equal(await refusal(apps.pupils, 'student'), undefined, 'a pupil');
  t.equal(await refusal(apps.pupils, 'employee'), 'not_connected', 'a teacher: not for their type');
  t.equal(await refusal(apps.everywhere, 'employee'), undefined, 'a config app no school lists: every school');
  t.equal(await refusal(apps.builtin, 'student'), undefined, 'Lanyard\'s own client: every school');
  const sandboxRefusal = await schoolRefusal(src, await availabilityOf(src, 'anyone'), sandbox.id, 'student');
  t.equal(sandboxRefusal, 'sandbox_school', 'the sandbox rule comes first');
});
