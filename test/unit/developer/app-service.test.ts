import t from 'tap';
import { clientSecretMatches } from '../../../src/clients/client-secret.js';
import { type Actor, actorOf, OPERATOR } from '../../../src/developer/actor.js';
import { AppService } from '../../../src/developer/app-service.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../../src/developer/errors.js';
import { developerStore } from '../../helpers/developer-store.js';

interface Teardown { teardown(fn: () => unknown): void }

async function setUp(t: Teardown) {
  const { store, clock, log, lines, dev: account } = await developerStore(t);
  const apps = new AppService({ store, clock, log });
  const dev = async (name: string): Promise<Actor> => actorOf(await account(name));
  return { store, clock, apps, lines, dev };
}

const problems = (err: unknown): unknown => (err instanceof ValidationError ? err.fields : err);
const fieldPaths = (err: unknown) => (err instanceof ValidationError ? err.fields.map((f) => f.path) : err);

t.test('register: a random client_id, development, openid by default, the creator owns it', async (t) => {
  const { apps, store, dev, lines } = await setUp(t);
  const ada = await dev('Ada');
  const app = await apps.register(ada, { name: '  Reading Quest ', description: 'Books', homepageUrl: 'https://quest.example/' });
  t.match(app.clientId, /^app_[0-9a-f]{32}$/);
  t.match(app, { name: 'Reading Quest', status: 'development', source: 'developer', ownerId: ada.id, defaultScopes: ['openid'], responseTypes: ['code'], redirectUris: [] });
  const other = await apps.register(ada, { name: 'Second' });
  t.not(other.clientId, app.clientId);
  t.same((await store.listTeam(app.clientId)).map((m) => [m.developerId, m.role]), [[ada.id, 'owner']]);
  t.same((await apps.listApps(ada)).map((a) => a.client.name), ['Reading Quest', 'Second']);
  const [event] = await apps.history(ada, app.clientId);
  t.match(event, { action: 'app.registered', actorId: ada.id, actorName: 'Ada', detail: { name: 'Reading Quest' } });
  t.ok(lines.some((l) => l.includes('"event":"app.registered"') && l.includes(app.clientId)));
  t.same(fieldPaths(await apps.register(ada, { name: ' ', homepageUrl: 'http://quest.example' }).catch((e: unknown) => e)),
    ['name', 'homepage_url'], 'every problem at once');
});

t.test('another developer: NotFoundError for every action; config clients are not reachable', async (t) => {
  const { apps, dev } = await setUp(t);
  const ada = await dev('Ada');
  const eve = await dev('Eve');
  const { clientId } = await apps.register(ada, { name: 'Mine' });
  const attempts: (() => Promise<unknown>)[] = [
    () => apps.getApp(eve, clientId), () => apps.updateDetails(eve, clientId, { name: 'x' }),
    () => apps.addCallback(eve, clientId, 'https://a.example/cb'), () => apps.removeCallback(eve, clientId, 'https://a.example/cb'),
    () => apps.listSecrets(eve, clientId), () => apps.createSecret(eve, clientId, { label: 'x' }), () => apps.revokeSecret(eve, clientId, 'sec_x'),
    () => apps.setDefaultScopes(eve, clientId, []), () => apps.setLogoutUrl(eve, clientId, undefined), () => apps.setInitiateLoginUri(eve, clientId, 'https://a.example/login'),
    () => apps.setInitiateLoginUri(eve, clientId, undefined), () => apps.deleteApp(eve, clientId),
    () => apps.listTeam(eve, clientId), () => apps.addTeamMember(eve, clientId, 'eve@example.com'),
    () => apps.removeTeamMember(eve, clientId, ada.id), () => apps.history(eve, clientId), () => apps.requestLive(eve, clientId),
  ];
  for (const attempt of attempts) t.type(await attempt().catch((e) => e), NotFoundError);
  t.same(await apps.listApps(eve), []);
  t.type(await apps.getApp(ada, 'demo-app').catch((e) => e), NotFoundError);
  t.type(await apps.getApp(ada, 'lanyard').catch((e) => e), NotFoundError);
});

t.test('callbacks: validated, exact, no duplicates; recorded', async (t) => {
  const { apps, dev } = await setUp(t);
  const ada = await dev('Ada');
  const { clientId } = await apps.register(ada, { name: 'App' });
  const after = await apps.addCallback(ada, clientId, 'https://app.example/cb?x=1');
  t.same(after.client.redirectUris, ['https://app.example/cb?x=1']);
  t.match(problems(await apps.addCallback(ada, clientId, 'https://app.example/cb?x=1').catch((e) => e)), [{ path: 'redirect_uri', message: /already registered/ }]);
  t.match(problems(await apps.addCallback(ada, clientId, 'http://app.example/cb').catch((e) => e)), [{ path: 'redirect_uri', message: /https/ }]);
  t.same((await apps.addCallback(ada, clientId, 'https://app.example/cb?x=2')).client.redirectUris, ['https://app.example/cb?x=1', 'https://app.example/cb?x=2']);
  t.same((await apps.removeCallback(ada, clientId, 'https://app.example/cb?x=1')).redirectUris, ['https://app.example/cb?x=2']);
  t.type(await apps.removeCallback(ada, clientId, 'https://app.example/cb?x=1').catch((e) => e), NotFoundError);
  t.same((await apps.history(ada, clientId)).map((e) => e.action), ['callback.removed', 'callback.added', 'callback.added', 'app.registered']);
});

t.test('secrets: 256-bit, hashed, hint and label only in the history and logs; expiry in the future; revoke', async (t) => {
  const { apps, dev, store, clock, lines } = await setUp(t);
  const ada = await dev('Ada');
  const { clientId } = await apps.register(ada, { name: 'App' });
  const { secret, record } = await apps.createSecret(ada, clientId, { label: 'Production', expiresAt: '2030-04-01T00:00:00+02:00' });
  t.equal(Buffer.from(secret, 'base64url').length, 32, '256 bits');
  t.ok(clientSecretMatches(record.hash, secret), 'stored as its hash');
  t.match(record, { label: 'Production', hint: secret.slice(-4), expiresAt: '2030-03-31T22:00:00.000Z' });
  const stored = await store.listClientSecrets(clientId);
  t.equal(stored.length, 1);
  t.notOk(JSON.stringify(stored).includes(secret));
  const history = JSON.stringify(await apps.history(ada, clientId));
  t.notOk(history.includes(secret), 'the history never holds the secret');
  t.notOk(lines.join('').includes(secret), 'nor do the logs');
  t.notOk(history.includes(record.hash) || lines.join('').includes(record.hash), 'nor its hash');
  t.match(history, /"label":"Production"/);
  t.match(problems(await apps.createSecret(ada, clientId, { label: '' }).catch((e) => e)), [{ path: 'label' }]);
  t.match(problems(await apps.createSecret(ada, clientId, { label: 'x'.repeat(61) }).catch((e) => e)), [{ path: 'label' }]);
  t.match(problems(await apps.createSecret(ada, clientId, { label: 'x', expiresAt: '2030-03-01T09:59:00Z' }).catch((e) => e)), [{ path: 'expires_at', message: /future/ }]);
  t.match(problems(await apps.createSecret(ada, clientId, { label: 'x', expiresAt: 'next tuesday' }).catch((e) => e)), [{ path: 'expires_at' }]);
  const second = await apps.createSecret(ada, clientId, { label: 'Rotation' });
  t.equal((await apps.listSecrets(ada, clientId)).length, 2, 'two active secrets');
  await apps.revokeSecret(ada, clientId, record.id);
  t.same((await apps.listSecrets(ada, clientId)).map((s) => s.id), [second.record.id]);
  t.type(await apps.revokeSecret(ada, clientId, record.id).catch((e) => e), NotFoundError, 'revoked twice');
  for (let i = 1; i < 10; i += 1) await apps.createSecret(ada, clientId, { label: `s${i}` });
  t.type(await apps.createSecret(ada, clientId, { label: 'one too many' }).catch((e) => e), ConflictError);
  clock.advance(1000);
});

t.test('default scopes and logout URL', async (t) => {
  const { apps, dev } = await setUp(t);
  const ada = await dev('Ada');
  const { clientId } = await apps.register(ada, { name: 'App' });
  t.same((await apps.setDefaultScopes(ada, clientId, [])).defaultScopes, []);
  t.same((await apps.setDefaultScopes(ada, clientId, ['openid', 'openid'])).defaultScopes, ['openid']);
  t.match(problems(await apps.setDefaultScopes(ada, clientId, ['openid', 'profile']).catch((e) => e)), [{ path: 'default_scopes', message: /“profile”/ }]);
  t.equal((await apps.setLogoutUrl(ada, clientId, 'https://app.example/bye')).client.logoutUrl, 'https://app.example/bye');
  t.match(problems(await apps.setLogoutUrl(ada, clientId, 'http://app.example/bye').catch((e) => e)), [{ path: 'logout_url' }]);
  t.equal((await apps.setLogoutUrl(ada, clientId, undefined)).client.logoutUrl, undefined);
  t.same((await apps.history(ada, clientId)).map((e) => e.action),
    ['logout_url.cleared', 'logout_url.set', 'scopes.changed', 'scopes.changed', 'app.registered']);
});

t.test('initiate login URI: validated like a callback URL, set, changed and cleared, each recorded once', async (t) => {
  const { apps, dev, store, lines } = await setUp(t);
  const ada = await dev('Ada');
  const { clientId } = await apps.register(ada, { name: 'App' });
  t.equal((await store.findClient(clientId))?.initiateLoginUri, undefined, 'none at first');
  t.equal((await apps.setInitiateLoginUri(ada, clientId, ' https://app.example/login ')).client.initiateLoginUri, 'https://app.example/login', 'trimmed');
  t.equal((await store.findClient(clientId))?.initiateLoginUri, 'https://app.example/login', 'stored');
  t.equal((await apps.setInitiateLoginUri(ada, clientId, 'https://app.example/login')).client.initiateLoginUri, 'https://app.example/login', 'the same again: no change');
  t.equal((await apps.setInitiateLoginUri(ada, clientId, 'http://localhost:8080/login')).client.initiateLoginUri, 'http://localhost:8080/login', 'changed');
  for (const bad of ['not a url', 'ftp://app.example/login', 'http://app.example/login', 'https://app.example/login#x', 'https://u:p@app.example/login',
    'https://*.app.example/login', `https://app.example/${'a'.repeat(2001)}`]) {
    t.match(problems(await apps.setInitiateLoginUri(ada, clientId, bad).catch((e) => e)), [{ path: 'initiate_login_uri', message: /^An initiate login URI / }], bad.slice(0, 40));
  }
  t.equal((await store.findClient(clientId))?.initiateLoginUri, 'http://localhost:8080/login', 'a refusal changes nothing');
  t.equal((await apps.setInitiateLoginUri(ada, clientId, '  ')).client.initiateLoginUri, undefined, "'' clears");
  t.equal((await apps.setInitiateLoginUri(ada, clientId, undefined)).client.initiateLoginUri, undefined, 'clearing again: no change');
  t.equal((await store.findClient(clientId))?.initiateLoginUri, undefined, 'cleared in the store');
  const history = await apps.history(ada, clientId);
  t.same(history.map((e) => e.action), ['initiate_login_uri.cleared', 'initiate_login_uri.set', 'initiate_login_uri.set', 'app.registered']);
  t.match(history[1], { actorId: ada.id, actorName: 'Ada', detail: { url: 'http://localhost:8080/login' } });
  t.match(history[2], { detail: { url: 'https://app.example/login' } });
  t.same(history[0]!.detail, {});
  t.ok(lines.some((l) => l.includes('"event":"app.initiate_login_uri_set"') && l.includes(clientId)), 'logged');
});

t.test('team: owner invites by email and removes; members leave; last owner stays; members cannot manage or delete', async (t) => {
  const { apps, dev } = await setUp(t);
  const ada = await dev('Ada');
  const bob = await dev('Bob');
  const cy = await dev('Cy');
  const { clientId } = await apps.register(ada, { name: 'App' });
  t.match(await apps.addTeamMember(ada, clientId, ' BOB@example.com '), { email: 'bob@example.com', link: { url: /\/developer\/team-invitations\// } });
  t.match(problems(await apps.addTeamMember(ada, clientId, 'bob@example.com').catch((e) => e)), [{ path: 'email', message: /already invited/ }]);
  t.type(await apps.getApp(bob, clientId).catch((e) => e), NotFoundError, 'invited is not in the team yet');
  t.match(await apps.invitations.accept(bob, clientId), { client: { clientId }, role: 'member' });
  t.match(problems(await apps.addTeamMember(ada, clientId, 'bob@example.com').catch((e) => e)), [{ path: 'email', message: /already in this app/ }]);
  t.equal((await apps.getApp(bob, clientId)).role, 'member');
  await apps.addCallback(bob, clientId, 'https://app.example/cb');
  t.type(await apps.addTeamMember(bob, clientId, 'cy@example.com').catch((e) => e), ForbiddenError);
  t.type(await apps.removeTeamMember(bob, clientId, ada.id).catch((e) => e), ForbiddenError);
  t.type(await apps.deleteApp(bob, clientId).catch((e) => e), ForbiddenError);
  t.type(await apps.removeTeamMember(ada, clientId, ada.id).catch((e) => e), ConflictError, 'the last owner cannot leave');
  await apps.addTeamMember(ada, clientId, 'cy@example.com');
  await apps.invitations.accept(cy, clientId);
  await apps.removeTeamMember(cy, clientId, cy.id);
  t.type(await apps.getApp(cy, clientId).catch((e) => e), NotFoundError, 'left: gone at once');
  await apps.removeTeamMember(ada, clientId, bob.id);
  t.type(await apps.getApp(bob, clientId).catch((e) => e), NotFoundError, 'removed: gone at once');
  t.same((await apps.listTeam(ada, clientId)).map((m) => m.email), ['ada@example.com']);
  t.same((await apps.history(ada, clientId)).slice(0, 6).map((e) => [e.action, e.actorName]), [
    ['team.member_removed', 'Ada'], ['team.member_left', 'Cy'], ['team.invitation_accepted', 'Cy'], ['team.member_invited', 'Ada'],
    ['callback.added', 'Bob'], ['team.invitation_accepted', 'Bob'],
  ]);
});

t.test('invitations: grant nothing until accepted; unknown emails answered alike; decline, withdraw; limits count them', async (t) => {
  const { apps, dev, store, clock } = await setUp(t);
  const ada = await dev('Ada');
  const bob = await dev('Bob');
  const { clientId } = await apps.register(ada, { name: 'Shared' });
  const known = await apps.addTeamMember(ada, clientId, 'bob@example.com');
  const unknown = await apps.addTeamMember(ada, clientId, 'nobody@example.com');
  t.same([known, unknown].map((r) => [r.email, Object.keys(r).sort(), typeof r.link.url]), [['bob@example.com', ['email', 'link'], 'string'], ['nobody@example.com', ['email', 'link'], 'string']], 'the same answer either way');
  t.same((await store.listTeam(clientId)).map((m) => [m.developerId, m.role, m.invitedBy]).sort(),
    [['address:nobody@example.com', 'invited', ada.id], [ada.id, 'owner', undefined], ['address:bob@example.com', 'invited', ada.id]].sort(),
    'every invitation is held by the address (app-team.ts addressInvitee), whether or not an account has it');
  t.same((await apps.listTeam(ada, clientId)).filter((m) => m.role === 'invited').map((m) => m.developerId).sort(),
    ['address:bob@example.com', 'address:nobody@example.com'], 'their ids alike too: neither is an account’s id');
  t.same((await apps.listTeam(ada, clientId)).filter((m) => m.role === 'invited').map((m) => [m.email, m.displayName]).sort(),
    [['bob@example.com', 'bob@example.com'], ['nobody@example.com', 'nobody@example.com']], 'both by the address, neither by an account’s name');
  t.same((await apps.history(ada, clientId)).slice(0, 2).map((e) => [e.action, e.detail]),
    [['team.member_invited', { email: 'nobody@example.com' }], ['team.member_invited', { email: 'bob@example.com' }]], 'both recorded alike');

  // Invited: no app, no action.
  t.same(await apps.listApps(bob), [], 'not one of their apps');
  for (const attempt of [
    () => apps.getApp(bob, clientId), () => apps.addCallback(bob, clientId, 'https://evil.example/cb'), () => apps.createSecret(bob, clientId, { label: 'x' }),
    () => apps.listTeam(bob, clientId), () => apps.removeTeamMember(bob, clientId, bob.id), () => apps.history(bob, clientId),
  ]) t.type(await attempt().catch((e) => e), NotFoundError);
  const [invitation] = await apps.invitations.list(bob);
  t.match(invitation, { client: { clientId, name: 'Shared' }, invitedBy: { id: ada.id, name: 'Ada' }, invitedAt: clock.now().toISOString() });
  t.same(await apps.invitations.list(ada), [], 'an owner has no invitation');
  t.type(await apps.invitations.accept(ada, clientId).catch((e) => e), NotFoundError, 'nor can accept one');

  // Declined: gone; withdrawn by the owner: gone.
  await apps.invitations.decline(bob, clientId);
  t.same((await store.listTeam(clientId)).map((m) => m.developerId).sort(), [ada.id, 'address:nobody@example.com'].sort());
  t.type(await apps.invitations.decline(bob, clientId).catch((e) => e), NotFoundError, 'declined twice');
  await apps.addTeamMember(ada, clientId, 'bob@example.com');
  t.type(await apps.removeTeamMember(ada, clientId, bob.id).catch((e) => e), NotFoundError, 'an invitation is not withdrawn by the account’s id: the owner never sees it');
  await apps.removeTeamMember(ada, clientId, 'address:bob@example.com');
  t.type(await apps.invitations.accept(bob, clientId).catch((e) => e), NotFoundError, 'withdrawn: nothing to accept');
  t.same((await apps.history(ada, clientId)).slice(0, 3).map((e) => e.action), ['team.invitation_withdrawn', 'team.member_invited', 'team.invitation_declined']);

  // The team limit counts invitations, and answers an unknown address the same way.
  const team = await store.listTeam(clientId);
  for (let i = team.length; i < 50; i += 1) {
    await store.putTeamMember({ clientId, developerId: `dev_filler_${i}`, role: 'invited', addedAt: clock.now().toISOString(), invitedBy: ada.id });
  }
  t.type(await apps.addTeamMember(ada, clientId, 'bob@example.com').catch((e) => e), ConflictError, 'full: a known address');
  t.type(await apps.addTeamMember(ada, clientId, 'someone.else@example.com').catch((e) => e), ConflictError, 'full: an unknown one alike');

  // An invitation to own nothing: an invited developer is not an owner, and owns no app by it.
  const { clientId: other } = await apps.register(ada, { name: 'Other' });
  await apps.addTeamMember(ada, other, 'bob@example.com');
  t.same((await apps.listApps(bob)).length, 0);
  await apps.invitations.accept(bob, other);
  t.same((await apps.listApps(bob)).map((a) => [a.client.name, a.role]), [['Other', 'member']], 'accepted: the app is theirs to work on');
});

t.test('an older store’s invitation, held by the account’s id: listed and withdrawn by its address, accepted by the account', async (t) => {
  const { apps, dev, store, clock } = await setUp(t);
  const ada = await dev('Ada');
  const bob = await dev('Bob');
  const { clientId } = await apps.register(ada, { name: 'Shared' });
  const invite = () => store.putTeamMember({ clientId, developerId: bob.id, role: 'invited', addedAt: clock.now().toISOString(), invitedBy: ada.id });
  await invite();
  t.same((await apps.listTeam(ada, clientId)).map((m) => [m.developerId, m.email, m.displayName, m.role]).slice(1),
    [['address:bob@example.com', 'bob@example.com', 'bob@example.com', 'invited']], 'listed as an invitation to the address');
  t.match((await apps.addTeamMember(ada, clientId, 'BOB@example.com').catch((e) => e)).fields, [{ message: /already invited/ }], 'not invited twice');
  await apps.removeTeamMember(ada, clientId, 'address:bob@example.com');
  t.same((await store.listTeam(clientId)).map((m) => m.developerId), [ada.id], 'withdrawn by the address');
  t.match((await apps.history(ada, clientId))[0], { action: 'team.invitation_withdrawn', detail: { developer_id: 'address:bob@example.com', email: 'bob@example.com' } });
  await invite();
  t.same((await apps.invitations.list(bob)).map((i) => i.client.clientId), [clientId], 'the account sees it');
  await apps.invitations.accept(bob, clientId);
  t.same((await store.listTeam(clientId)).map((m) => [m.developerId, m.role]), [[ada.id, 'owner'], [bob.id, 'member']], 'accepted: a member');
});

t.test('an unverified address (open sign-up): an invitation comes with a link, and only the account with the address accepts, through it, once, while it stands', async (t) => {
  const { store, clock, log, dev } = await developerStore(t);
  const apps = new AppService({ store, clock, log, issuer: 'https://id.example' });
  const [ada, bob, eve] = await Promise.all(['Ada', 'Bob', 'Eve'].map(async (n) => actorOf(await dev(n, { verified: false }))));
  const { clientId } = await apps.register(ada!, { name: 'Shared' });
  const { clientId: other } = await apps.register(ada!, { name: 'Other' });
  const recorded = await apps.addTeamMember(ada!, clientId, 'bob@example.com');
  t.match(recorded, { email: 'bob@example.com', link: { url: /^https:\/\/id\.example\/developer\/team-invitations\/[A-Za-z0-9_-]{43}$/ } }, 'a link to hand over');
  t.equal(recorded.link!.expiresAt.getTime() - clock.now().getTime(), 7 * 24 * 3600 * 1000, 'for 7 days');
  const token = recorded.link!.url.split('/').pop()!;
  t.notOk(JSON.stringify(await store.oidc.find('TeamInvitationLink', token)), 'the store keeps no token');
  t.match(await apps.invitations.list(bob!), [{ client: { clientId }, byLink: true }], 'listed for the account with the address, to accept by the link');

  t.type(await apps.invitations.accept(bob!, clientId).catch((e) => e), ForbiddenError, 'no link: refused');
  t.type(await apps.invitations.accept(bob!, clientId, 'x'.repeat(43)).catch((e) => e), NotFoundError, 'another token: refused');
  t.equal(await apps.invitations.byLink(eve!, token), undefined, 'another account holding the link sees nothing');
  t.type(await apps.invitations.accept(eve!, clientId, token).catch((e) => e), NotFoundError, 'nor accepts');
  await apps.addTeamMember(ada!, other, 'bob@example.com');
  t.type(await apps.invitations.accept(bob!, other, token).catch((e) => e), NotFoundError, 'a link is for its own app only');
  t.match(await apps.invitations.byLink(bob!, token), { client: { clientId, name: 'Shared' }, invitedBy: { name: 'Ada' } }, 'the link shows the invitation to its account');
  t.equal((await store.listTeam(clientId)).length, 2, 'refusals change nothing');

  await apps.invitations.accept(bob!, clientId, token);
  t.same((await store.listTeam(clientId)).map((m) => [m.developerId, m.role]), [[ada!.id, 'owner'], [bob!.id, 'member']], 'accepted through the link');
  await apps.removeTeamMember(ada!, clientId, bob!.id);
  const fresh = (await apps.addTeamMember(ada!, clientId, 'bob@example.com')).link!.url.split('/').pop()!;
  t.type(await apps.invitations.accept(bob!, clientId, token).catch((e) => e), NotFoundError, 'a used link does not work again');

  // Withdrawn: the link ends with it, even when the address is invited again; lapsed: refused.
  const withdrawn = (await apps.addTeamMember(ada!, other, 'eve@example.com')).link!.url.split('/').pop()!;
  await apps.removeTeamMember(ada!, other, 'address:eve@example.com');
  t.equal(await apps.invitations.byLink(eve!, withdrawn), undefined, 'withdrawn: the link shows nothing');
  await apps.addTeamMember(ada!, other, 'eve@example.com');
  t.equal(await apps.invitations.byLink(eve!, withdrawn), undefined, 'invited again: the old link still shows nothing');
  t.type(await apps.invitations.accept(eve!, other, withdrawn).catch((e) => e), NotFoundError, 'nor accepts the new invitation');
  clock.advance(7 * 24 * 3600 * 1000 + 1000);
  t.equal(await apps.invitations.byLink(bob!, fresh), undefined, 'after 7 days the link shows nothing');
  t.type(await apps.invitations.accept(bob!, clientId, fresh).catch((e) => e), NotFoundError, 'and accepts nothing');
  t.ok((await apps.invitations.list(bob!)).some((i) => i.client.clientId === clientId), 'the invitation stands, to be withdrawn and made again');
});

t.test('going live: request, decline with a note, request again, approve; operator only', async (t) => {
  const { apps, dev } = await setUp(t);
  const ada = await dev('Ada');
  const { clientId } = await apps.register(ada, { name: 'App' });
  t.match(await apps.requestLive(ada, clientId).catch((e) => e), { message: /callback URL/ });
  await apps.addCallback(ada, clientId, 'https://app.example/cb');
  t.equal((await apps.requestLive(ada, clientId)).status, 'pending');
  t.type(await apps.requestLive(ada, clientId).catch((e) => e), ConflictError);
  t.same((await apps.listPending()).map((r) => r.client.clientId), [clientId]);
  t.type(await apps.approve(ada, clientId).catch((e) => e), ForbiddenError, 'a developer cannot approve');
  t.match(await apps.decline(OPERATOR, clientId, 'Add a privacy policy link'), { status: 'development', reviewNote: 'Add a privacy policy link' });
  t.match(await apps.requestLive(ada, clientId), { status: 'pending', reviewNote: undefined });
  t.equal((await apps.approve(OPERATOR, clientId)).status, 'live');
  t.type(await apps.approve(OPERATOR, clientId).catch((e) => e), ConflictError);
  t.match(await apps.history(ada, clientId).catch((e) => e), { name: 'ForbiddenError', message: /turn on two-step sign-in/ }, 'a live app’s team needs a second factor');
  t.same((await apps.history({ ...ada, twoStep: true }, clientId)).slice(0, 4).map((e) => [e.action, e.actorId]),
    [['app.approved', 'operator'], ['app.live_requested', ada.id], ['app.declined', 'operator'], ['app.live_requested', ada.id]]);
});

t.test('delete: owner only; the app, its secrets and team are gone', async (t) => {
  const { apps, dev, store } = await setUp(t);
  const ada = await dev('Ada');
  const { clientId } = await apps.register(ada, { name: 'App' });
  await apps.createSecret(ada, clientId, { label: 'x' });
  await store.oidc.upsert('RefreshToken', 'rt-1', { clientId, accountId: 'u1' }, 3600);
  await store.oidc.upsert('RefreshToken', 'rt-2', { clientId: 'demo-app', accountId: 'u1' }, 3600);
  await apps.deleteApp(ada, clientId);
  t.equal(await store.findClient(clientId), undefined);
  t.same(await store.listClientSecrets(clientId), []);
  t.same(await store.listTeam(clientId), []);
  t.equal(await store.oidc.find('RefreshToken', 'rt-1'), undefined, "the app's tokens are revoked");
  t.ok(await store.oidc.find('RefreshToken', 'rt-2'), "other apps' tokens are not");
  t.same(await apps.listApps(ada), []);
  t.type(await apps.getApp(ada, clientId).catch((e) => e), NotFoundError);
  t.same((await store.listDeveloperEvents(`app:${clientId}`, 1)).map((e) => e.action), ['app.deleted'], 'the deletion stays on record');
});
