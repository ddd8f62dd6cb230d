import t from 'tap';
import type { Organisation, StoredClient } from '../../../adapters/store.js';
import { mayClientSignIn, organisationAllowed, sandboxOnly, userAllowed } from '../../../src/developer/app-availability.js';

/**
 * The rule of issue 9 §3: development and pending apps sign in only the sandbox school's users, and the
 * sandbox school's users (whose credentials every developer sees) sign in to nothing else.
 */

const sandbox: Organisation = { id: 'o100000000000001', slug: 'sandbox', name: 'Lanyard Sandbox School', login: { methods: ['password'], badgeRequiresEmoji: false } };
const school: Organisation = { id: 'o200000000000002', slug: 'demo-school', name: 'Demo School', login: { methods: ['password'], badgeRequiresEmoji: false } };
const client = (status: StoredClient['status'], source: StoredClient['source'] = 'developer') => ({ status, source }) as StoredClient;

t.test('development and pending apps: the sandbox school only; live, config and built-in clients: every real school', async (t) => {
  for (const status of ['development', 'pending'] as const) {
    t.ok(sandboxOnly(client(status)), `${status}: held to the sandbox`);
    t.ok(organisationAllowed(client(status), sandbox.id, sandbox), `${status}: the sandbox school`);
    t.notOk(organisationAllowed(client(status), school.id, sandbox), `${status}: not a real school`);
    t.notOk(userAllowed(client(status), { organisationId: school.id }, sandbox), `${status}: not a real school's user`);
    t.notOk(organisationAllowed(client(status), sandbox.id, undefined), `${status}: no one when the sandbox school is missing`);
  }
  for (const c of [client('live'), client('live', 'config'), client('live', 'builtin')]) {
    t.notOk(sandboxOnly(c), `${c.source} live: every real school`);
    t.ok(userAllowed(c, { organisationId: school.id }, sandbox));
    t.notOk(userAllowed(c, { organisationId: sandbox.id }, sandbox), `${c.source} live: never the sandbox school's users`);
    t.ok(organisationAllowed(c, school.id, undefined), `${c.source} live: every school when there is no sandbox school`);
  }
  t.ok(sandboxOnly(undefined), 'an unknown client fails closed');
});

t.test('mayClientSignIn reads the client and the sandbox school from the store', async (t) => {
  const clients = new Map<string, StoredClient>([['dev', client('development')], ['live', client('live')]]);
  const src = {
    clients: { get: async (id: string) => clients.get(id) },
    store: { findOrganisation: async (slug: string) => (slug === 'sandbox' ? sandbox : undefined) },
  };
  t.ok(await mayClientSignIn(src, 'dev', { organisationId: sandbox.id }));
  t.notOk(await mayClientSignIn(src, 'dev', { organisationId: school.id }));
  t.ok(await mayClientSignIn(src, 'live', { organisationId: school.id }));
  t.notOk(await mayClientSignIn(src, 'live', { organisationId: sandbox.id }), 'a live app never signs in a sandbox user');
  t.notOk(await mayClientSignIn(src, 'gone', { organisationId: school.id }), 'an unknown client is held to the sandbox school');
  t.notOk(await mayClientSignIn(src, 'live', undefined), 'no user: no');
});
