import t from 'tap';
import { type Actor, actorOf, OPERATOR } from '../../../src/developer/actor.js';
import { AppService } from '../../../src/developer/app-service.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../../src/developer/errors.js';
import { developerStore } from '../../helpers/developer-store.js';

interface Teardown { teardown(fn: () => unknown): void }

/** A live app (approved by the operator) whose owner Ada and member Bob sign in with a second factor. */
async function liveApp(t: Teardown) {
  const { store, clock, log, lines, dev } = await developerStore(t);
  const apps = new AppService({ store, clock, log });
  const withTotp = async (name: string): Promise<Actor> => ({ ...actorOf(await dev(name)), twoStep: true });
  const ada = await withTotp('Ada');
  const { clientId } = await apps.register(ada, { name: 'Reading Quest' });
  await apps.addCallback(ada, clientId, 'https://quest.example/cb');
  await apps.setLogoutUrl(ada, clientId, 'https://quest.example/bye');
  await apps.requestLive(ada, clientId);
  await apps.approve(OPERATOR, clientId);
  return { store, clock, apps, lines, ada, clientId, withTotp };
}

t.test('on a live app, a new callback URL, logout_url or initiate_login_uri waits for review; removing and clearing do not', async (t) => {
  const { store, apps, lines, ada, clientId } = await liveApp(t);
  const added = await apps.addCallback(ada, clientId, 'https://evil.example/cb');
  t.ok(added.proposal, 'a proposal, not a change');
  t.same(added.client.redirectUris, ['https://quest.example/cb'], 'the app keeps its approved callback URLs');
  t.same((await store.findClient(clientId))!.redirectUris, ['https://quest.example/cb'], 'and so does the store every instance reads');
  const logout = await apps.setLogoutUrl(ada, clientId, 'https://evil.example/bye');
  t.equal(logout.client.logoutUrl, 'https://quest.example/bye', 'the logout URL stays');
  const launch = await apps.setInitiateLoginUri(ada, clientId, 'https://evil.example/start');
  t.equal(launch.client.initiateLoginUri, undefined, 'no initiate login URI yet');
  const app = await apps.getApp(ada, clientId);
  t.same((await apps.proposalsOf(app)).map((p) => [p.kind, p.url, p.proposedBy.name]), [
    ['redirect_uri', 'https://evil.example/cb', 'Ada'], ['logout_url', 'https://evil.example/bye', 'Ada'], ['initiate_login_uri', 'https://evil.example/start', 'Ada'],
  ]);
  t.notOk((await apps.setLogoutUrl(ada, clientId, 'https://quest.example/bye')).proposal, 'the value it has already: nothing to review');
  const again = await apps.setLogoutUrl(ada, clientId, 'https://evil.example/bye2');
  t.same((await apps.proposalsOf(app)).filter((p) => p.kind === 'logout_url').map((p) => p.url), ['https://evil.example/bye2'], 'a newer proposal for a URL replaces the older');
  t.ok(again.proposal);
  t.match(await apps.addCallback(ada, clientId, 'https://evil.example/cb').catch((e) => e), { fields: [{ message: /already waiting for review/ }] });
  t.match(await apps.addCallback(ada, clientId, 'http://evil.example/cb').catch((e) => e), { fields: [{ path: 'redirect_uri', message: /https/ }] }, 'checked as before');

  t.same((await apps.removeCallback(ada, clientId, 'https://quest.example/cb')).redirectUris, [], 'removing takes effect at once');
  t.equal((await apps.setLogoutUrl(ada, clientId, undefined)).client.logoutUrl, undefined, 'so does clearing');
  t.ok(lines.some((l) => l.includes('"event":"app.change_proposed"')), 'proposals are logged');
  t.same((await apps.history(ada, clientId)).map((e) => e.action).filter((a) => a.startsWith('change.')).length, 4, 'and recorded in the history');
});

t.test('the operator approves or declines; only the operator; the team may withdraw', async (t) => {
  const { store, apps, ada, clientId, withTotp } = await liveApp(t);
  const { proposal: cb } = await apps.addCallback(ada, clientId, 'https://quest.example/cb2');
  const { proposal: logout } = await apps.setLogoutUrl(ada, clientId, 'https://quest.example/bye2');
  const { proposal: launch } = await apps.setInitiateLoginUri(ada, clientId, 'https://quest.example/start');
  t.same((await apps.listProposals()).map((a) => [a.client.clientId, a.changes.length]), [[clientId, 3]], 'the operator’s queue');

  t.type(await apps.approveChange(ada, clientId, cb!.id).catch((e) => e), ForbiddenError, 'a developer cannot approve');
  t.same((await apps.approveChange(OPERATOR, clientId, cb!.id)).redirectUris, ['https://quest.example/cb', 'https://quest.example/cb2'], 'approved: in effect');
  t.same((await store.findClient(clientId))!.redirectUris, ['https://quest.example/cb', 'https://quest.example/cb2']);
  t.type(await apps.approveChange(OPERATOR, clientId, cb!.id).catch((e) => e), NotFoundError, 'decided once');
  t.match(await apps.declineChange(OPERATOR, clientId, logout!.id, 'Use your own domain'), { url: 'https://quest.example/bye2' });
  t.equal((await store.findClient(clientId))!.logoutUrl, 'https://quest.example/bye', 'declined: the old URL stays');

  const bob = await withTotp('Bob');
  t.type(await apps.withdrawChange(bob, clientId, launch!.id).catch((e) => e), NotFoundError, 'someone outside the team cannot withdraw');
  await apps.withdrawChange(ada, clientId, launch!.id);
  t.same(await apps.listProposals(), [], 'nothing waits');
  const history = (await apps.history(ada, clientId)).map((e) => [e.action, e.actorId, e.detail.note ?? '']);
  t.same(history.slice(0, 5), [
    ['change.withdrawn', ada.id, ''], ['change.declined', 'operator', 'Use your own domain'], ['change.approved', 'operator', ''],
    ['callback.added', 'operator', ''], ['change.proposed', ada.id, ''],
  ], 'every step recorded, the operator’s note for the team');
});

t.test('a deleted app: its changes waiting for review go with it', async (t) => {
  const { apps, ada, clientId } = await liveApp(t);
  const { proposal } = await apps.addCallback(ada, clientId, 'https://quest.example/cb2');
  await apps.deleteApp(ada, clientId);
  t.type(await apps.approveChange(OPERATOR, clientId, proposal!.id).catch((e) => e), NotFoundError, 'a deleted app');
  t.same(await apps.listProposals(), [], 'a deleted app’s proposals are gone with it');
});

t.test('a live app’s team works on it only with a second factor; the operator and apps in development need none', async (t) => {
  const { store, clock, log, dev } = await developerStore(t);
  const apps = new AppService({ store, clock, log });
  const carol = actorOf(await dev('Carol'));
  t.equal(carol.twoStep, false);
  const { clientId } = await apps.register(carol, { name: 'Maths Map' });
  await apps.addCallback(carol, clientId, 'https://maths.example/cb');
  t.ok(await apps.getApp(carol, clientId), 'in development: no second factor needed');
  await apps.requestLive(carol, clientId);
  await apps.approve(OPERATOR, clientId);
  for (const work of [() => apps.getApp(carol, clientId), () => apps.addCallback(carol, clientId, 'https://maths.example/cb2'), () => apps.createSecret(carol, clientId, { label: 'x' })]) {
    t.match(await work().catch((e) => e), { name: 'ForbiddenError', message: /turn on two-step sign-in/ });
  }
  t.ok(await apps.getApp({ ...carol, twoStep: true }, clientId), 'with a second factor: in');
  t.ok(await apps.getApp(OPERATOR, clientId), 'the operator');
});

t.test('while an app waits to go live, a new place to send codes or people takes the request back', async (t) => {
  const { store, clock, log, dev } = await developerStore(t);
  const apps = new AppService({ store, clock, log });
  const dee = actorOf(await dev('Dee'));
  const { clientId } = await apps.register(dee, { name: 'Spelling Bee' });
  await apps.addCallback(dee, clientId, 'https://bee.example/cb');
  await apps.addCallback(dee, clientId, 'https://bee.example/cb2');
  await apps.requestLive(dee, clientId);
  t.equal((await apps.removeCallback(dee, clientId, 'https://bee.example/cb2')).status, 'pending', 'removing one keeps the request');
  const added = await apps.addCallback(dee, clientId, 'https://bee.example/other');
  t.ok(added.liveRequestWithdrawn);
  t.equal(added.client.status, 'development', 'adding one takes it back');
  t.type(await apps.approve(OPERATOR, clientId).catch((e) => e), ConflictError, 'so the operator cannot approve what they did not see');
  await apps.requestLive(dee, clientId);
  t.equal((await apps.setLogoutUrl(dee, clientId, 'https://bee.example/bye')).client.status, 'development', 'a logout URL too');
  t.same((await apps.history(dee, clientId)).slice(0, 2).map((e) => [e.action, e.detail.setting ?? '']),
    [['app.live_request_withdrawn', 'logout_url'], ['logout_url.set', '']], 'recorded');
  t.notOk((await apps.setLogoutUrl(dee, clientId, 'https://bee.example/bye2')).liveRequestWithdrawn, 'in development: nothing to take back');
});
