import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import type { StoredClient } from '../../../adapters/store.js';
import { SCHOOL_ACTIONS, SchoolAppRequests } from '../../../src/clients/school-app-requests.js';
import { ManualClock } from '../../../src/clock.js';

/** Apps asking schools (docs/school-console.md → Apps): what may be asked, approved and declined, and what the app's history says. */
async function setup(t: { teardown(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-requests-'));
  const clock = new ManualClock(new Date('2027-03-01T08:00:00Z'));
  const store = openSqliteStore(join(dir, 'lanyard.db'), clock);
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });
  const at = clock.now().toISOString();
  const client = (clientId: string, over: Partial<StoredClient> = {}): StoredClient => ({
    clientId, name: `App ${clientId}`, redirectUris: [`https://${clientId}.example/cb`], defaultScopes: ['openid'], responseTypes: ['code'],
    source: 'developer', status: 'live', createdAt: at, updatedAt: at, ...over,
  });
  const live = client('live');
  await store.putClient(live);
  const hill = await store.upsertOrganisation({ slug: 'hill', name: 'Hill School' });
  const dale = await store.upsertOrganisation({ slug: 'dale', name: 'Dale School' });
  await store.upsertOrganisation({ slug: 'sandbox', name: 'Sandbox School' });
  const history = async (clientId = 'live') => (await store.listDeveloperEvents(`app:${clientId}`, 50)).reverse().map((e) => ({ action: e.action, actorName: e.actorName, detail: e.detail }));
  return { store, clock, client, live, hill, dale, history, requests: new SchoolAppRequests({ store, clock }) };
}

const ADA = { id: 'dev_ada', name: 'Ada' };

/** A refusal with this status and these properties (tap matches an error against an object's fields). */
const refused = (statusCode: number, o: Record<string, unknown> = {}) => ({ statusCode, ...o }) as unknown as Error;

t.test('a live app asks once; the school approves: connected for everyone, the request gone, the history names the school', async (t) => {
  const { store, live, hill, history, requests } = await setup(t);
  const request = await requests.ask(live, 'hill', ADA, '  For year 4.  ');
  t.match(request, { clientId: 'live', organisationId: hill.id, requestedBy: 'dev_ada', note: 'For year 4.', status: 'pending' });
  t.equal(await requests.pendingCount(hill.id), 1);
  await t.rejects(requests.ask(live, hill.id, ADA), { statusCode: 409, message: /already asked Hill School/ }, 'asked once');
  const connection = await requests.approve(hill, 'live');
  t.match(connection, { source: 'school', userTypes: undefined, position: 0 });
  t.equal(await store.findAppRequest(hill.id, 'live'), undefined);
  t.equal(await requests.pendingCount(hill.id), 0);
  await t.rejects(requests.ask(live, 'hill', ADA), { statusCode: 409, message: /Hill School already uses this app/ });
  await t.rejects(requests.approve(hill, 'live'), { statusCode: 409, message: /no longer asking/ }, 'nothing left to approve');
  t.same(await history(), [
    { action: SCHOOL_ACTIONS.asked, actorName: 'Ada', detail: { school: 'Hill School', note: 'For year 4.' } },
    { action: SCHOOL_ACTIONS.approved, actorName: 'Hill School (a school admin)', detail: { school: 'Hill School' } },
  ]);
  t.match(await requests.schoolsOf('live'), [{ organisation: { slug: 'hill' }, status: 'connected' }]);
});

t.test('declined with a reason, kept so the app does not ask again; approved after all', async (t) => {
  const { store, clock, live, hill, history, requests } = await setup(t);
  await requests.ask(live, 'hill', ADA);
  await t.rejects(requests.decline(hill, 'live', ' '), refused(400, { field: 'reason' }), 'a reason is needed');
  await t.rejects(requests.decline(hill, 'live', 'x'.repeat(501)), refused(400, { field: 'reason', message: /at most 500/ }));
  clock.advance(60_000);
  const declined = await requests.decline(hill, 'live', 'Not this year.');
  t.match(declined, { status: 'declined', answer: 'Not this year.', answeredAt: '2027-03-01T08:01:00.000Z' });
  t.equal(await requests.pendingCount(hill.id), 0, 'a declined request is not counted as asking');
  await t.rejects(requests.ask(live, 'hill', ADA), { statusCode: 409, message: /Hill School declined this app/ });
  await requests.ask(live, 'dale', ADA, 'Please?');
  t.match(await requests.schoolsOf('live'), [
    { organisation: { slug: 'dale' }, status: 'pending' }, { organisation: { slug: 'hill' }, status: 'declined', request: { answer: 'Not this year.' } },
  ], 'waiting first, then declined');
  t.match(await requests.ofSchool(hill.id), [{ request: { status: 'declined' }, client: { clientId: 'live' } }]);
  await requests.approve(hill, 'live');
  t.ok(await store.findConnection(hill.id, 'live'), 'the school changed its mind');
  t.match((await history()).map((e) => e.action), [SCHOOL_ACTIONS.asked, SCHOOL_ACTIONS.declined, SCHOOL_ACTIONS.asked, SCHOOL_ACTIONS.approved]);
  t.same((await history())[1]!.detail, { school: 'Hill School', reason: 'Not this year.' });
});

t.test('refused: an app not live, a configuration-file app, the sandbox school, no such school, a long note; approving an app no longer live', async (t) => {
  const { store, client, live, hill, requests } = await setup(t);
  for (const [what, app] of [['in development', client('dev', { status: 'development' })], ['waiting for review', client('wait', { status: 'pending' })],
    ['of the configuration file', client('file', { source: 'config' })]] as const) {
    await t.rejects(requests.ask(app, 'hill', ADA), { statusCode: 409, message: /Only a live app can ask a school/ }, what);
  }
  await t.rejects(requests.ask(live, 'sandbox', ADA), refused(400, { field: 'organisation' }), 'the sandbox school');
  await t.rejects(requests.ask(live, 'nowhere', ADA), refused(400, { field: 'organisation' }));
  await t.rejects(requests.ask(live, '', ADA), refused(400, { field: 'organisation' }));
  await t.rejects(requests.ask(live, 'hill', ADA, 'x'.repeat(501)), refused(400, { field: 'note' }));
  t.same(await store.listAppRequests(hill.id), [], 'nothing asked');
  await requests.ask(live, 'hill', ADA);
  await store.putClient({ ...live, status: 'development' });
  await t.rejects(requests.approve(hill, 'live'), { statusCode: 409, message: /not live any more/ });
  t.equal(await store.findConnection(hill.id, 'live'), undefined);
  t.same(await requests.ofSchool(hill.id).then((r) => r.length), 1, 'the request stays');
});
