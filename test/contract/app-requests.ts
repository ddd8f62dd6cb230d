import type { Test } from 'tap';
import type { AppRequest, StoredClient } from '../../adapters/store.js';
import { type Fresh, START } from './harness.js';

export const liveClient = (id: string): StoredClient => ({
  clientId: id, name: `App ${id}`, redirectUris: [`https://${id}.example/cb`], defaultScopes: ['openid'], responseTypes: ['code'],
  source: 'developer', status: 'live', createdAt: START.toISOString(), updatedAt: START.toISOString(),
});

export const appRequest = (organisationId: string, clientId: string, over: Partial<AppRequest> = {}): AppRequest => ({
  organisationId, clientId, requestedBy: 'dev_1', requestedAt: START.toISOString(), status: 'pending', ...over,
});

/** App requests: one per school and app, listed both ways, answered by replacing, gone with a deleted client. */
export function appRequestsContract(t: Test, fresh: Fresh): void {
  t.test('app requests: put, find and list round-trip every field, a school\'s oldest first, a client\'s by school', async (t) => {
    const { store, reopen } = await fresh(t);
    for (const id of ['reading', 'maths', 'library']) await store.putClient(liveClient(id));
    const noted = appRequest('org-1', 'maths', { note: 'For Year 5 maths.\nThanks!', requestedAt: '2027-01-15T09:00:00.000Z' });
    const declined = appRequest('org-1', 'reading', {
      requestedAt: '2027-01-14T09:00:00.000Z', status: 'declined', answer: 'We use another reader.', answeredAt: '2027-01-15T10:00:00.000Z',
    });
    const plain = appRequest('org-1', 'library', { requestedAt: '2027-01-15T09:00:00.000Z' });
    for (const a of [noted, declined, plain]) await store.putAppRequest(a);
    await store.putAppRequest(appRequest('org-2', 'maths'));
    t.same(await store.findAppRequest('org-1', 'maths'), noted, 'every field');
    t.same(await store.findAppRequest('org-1', 'reading'), declined, 'a declined one with its answer');
    const found = await store.findAppRequest('org-1', 'library');
    t.same(found, plain);
    t.ok(found && found.note === undefined && found.answer === undefined && found.answeredAt === undefined, 'absent fields: undefined, not null');
    t.same((await store.listAppRequests('org-1')).map((a) => a.clientId), ['reading', 'library', 'maths'], 'oldest first, then by client id');
    t.same((await store.listClientAppRequests('maths')).map((a) => a.organisationId), ['org-1', 'org-2'], "a client's, by organisation");
    t.same(await store.listAppRequests('org-3'), [], 'a school without any');
    t.equal(await store.findAppRequest('org-2', 'reading'), undefined, 'not asked there');
    if (reopen) t.same(await (await reopen()).listAppRequests('org-1'), await store.listAppRequests('org-1'), 'another instance reads the same');
  });

  t.test('app requests: a put replaces by school and client (answering one); delete removes one, both ways', async (t) => {
    const { store } = await fresh(t);
    await store.putClient(liveClient('maths'));
    await store.putAppRequest(appRequest('org-1', 'maths', { note: 'please' }));
    const answered = appRequest('org-1', 'maths', { status: 'declined', answer: 'not now', answeredAt: '2027-01-16T00:00:00.000Z' });
    await store.putAppRequest(answered);
    t.same(await store.listAppRequests('org-1'), [answered], 'one request, replaced whole (the note cleared)');
    t.equal(await store.deleteAppRequest('org-1', 'maths'), true);
    t.equal(await store.deleteAppRequest('org-1', 'maths'), false, 'already gone');
    t.same(await store.listAppRequests('org-1'), []);
    t.same(await store.listClientAppRequests('maths'), [], 'both directions');
  });

  t.test('app requests: refused for a client that does not exist; deleting a client removes its requests everywhere, and only its', async (t) => {
    const { store } = await fresh(t);
    await t.rejects(store.putAppRequest(appRequest('org-1', 'ghost')), { statusCode: 404 } as unknown as Error, 'no request for a missing client');
    await store.putClient(liveClient('maths'));
    await store.putClient(liveClient('reading'));
    await store.putAppRequest(appRequest('org-1', 'maths'));
    await store.putAppRequest(appRequest('org-2', 'maths'));
    await store.putAppRequest(appRequest('org-1', 'reading'));
    t.equal(await store.deleteClient('maths'), true);
    t.same((await store.listAppRequests('org-1')).map((a) => a.clientId), ['reading'], "the other app's request stays");
    t.same(await store.listAppRequests('org-2'), []);
    await store.putClient(liveClient('maths'));
    t.same(await store.listClientAppRequests('maths'), [], 'a client registered again under the id has asked nobody');
  });
}
