import pino from 'pino';
import t from 'tap';
import type { DeveloperAccount } from '../../adapters/store.js';
import { type Clock, ManualClock } from '../../src/clock.js';
import { OPERATOR } from '../../src/developer/actor.js';
import { hashCredential } from '../../src/accounts/credential-hasher.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { normalisePassword } from '../../src/developer/developer-password.js';
import { AppService } from '../../src/developer/app-service.js';
import { createDeveloper } from '../helpers/developer.js';
import { type Answer, apiClient as client } from '../helpers/developer-api-client.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';

/**
 * The JSON API under /developer/api over real HTTP (docs/developer-area.md), every endpoint with its
 * validation errors and its authorisation: every endpoint's answer and its refusals with field paths, the 401 shapes, that
 * one developer's token reaches nothing of another's, and that a secret made here works at /oauth/token.
 */

const CALLBACK = 'http://localhost:8080/callback';

const quiet = pino({ level: 'silent' });

/** Every account here has this password: creating a token through the API asks for it again. */
const PASSWORD = 'a long developer passphrase';
const passwordHash = await hashCredential(normalisePassword(PASSWORD));

/** A developer account made in the store, with a personal API token made by the token service. */
async function developer(lanyard: Lanyard, clock: Clock, name: string, o: { totp?: boolean } = {}): Promise<{ account: DeveloperAccount; token: string; tokenId: string }> {
  const now = clock.now().toISOString();
  const account: DeveloperAccount = {
    id: `dev_${name.toLowerCase()}_${Math.random().toString(36).slice(2, 8)}`,
    email: `${name.toLowerCase()}.${Math.random().toString(36).slice(2, 8)}@example.com`,
    displayName: name, passwordHash, createdAt: now, updatedAt: now, emailVerifiedAt: now, // as an invitation's account
    // A live app's team signs in with a second factor (docs/developer-area.md → Changes to a live app); only
    // whether the account has one matters to the API, so the secret is a stand-in.
    ...(o.totp ? { totpSecret: 'enrolled' } : {}),
  };
  await lanyard.store.createDeveloper(account);
  const { token, record } = await new ApiTokens({ store: lanyard.store, clock, log: quiet }).create(account, { label: `${name}'s script`, expiresInDays: 90 });
  return { account, token, tokenId: record.id };
}

const paths = (a: Answer) => (a.json?.fields ?? []).map((f: { path: string }) => f.path);

const clock = new ManualClock(new Date());
const lanyard = await startLanyard(t, { clock });
const call = client(lanyard);
const ada = await developer(lanyard, clock, 'Ada', { totp: true });
const bob = await developer(lanyard, clock, 'Bob');

t.test('authentication: 401 with a Bearer challenge for a missing, malformed, wrong or revoked token', async (t) => {
  const missing = await call(undefined, 'GET', '/me');
  t.equal(missing.status, 401);
  t.equal(missing.headers.get('www-authenticate'), 'Bearer realm="lanyard-developer"', 'no error code when no token was sent (RFC 6750 §3.1)');
  t.match(missing.json, { error: 'unauthenticated', error_description: /Authorization: Bearer/ });
  t.equal(missing.headers.get('cache-control'), 'no-store');

  const basic = await call(undefined, 'GET', '/me', undefined, { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` });
  t.equal(basic.status, 401, 'another scheme: the bare challenge');
  t.equal(basic.headers.get('www-authenticate'), 'Bearer realm="lanyard-developer"');

  const wrongSecret = ada.token.slice(0, -2) + (ada.token.endsWith('AA') ? 'BB' : 'AA');
  for (const [what, header] of [
    ['empty', 'Bearer '],
    ['malformed', 'Bearer not-a-token'],
    ['two tokens', `Bearer ${ada.token} ${ada.token}`],
    ['wrong secret', `Bearer ${wrongSecret}`],
    ['unknown id', `Bearer lyd_0123456789abcdef_${ada.token.split('_').slice(2).join('_')}`],
  ] as const) {
    const res = await call(undefined, 'GET', '/me', undefined, { authorization: header });
    t.equal(res.status, 401, what);
    t.match(res.headers.get('www-authenticate'), /^Bearer realm="lanyard-developer", error="invalid_token"/, `${what}: invalid_token challenge`);
    t.match(res.json, { error: 'invalid_token' }, what);
    t.equal(res.headers.get('cache-control'), 'no-store');
  }
  const lowercase = await call(undefined, 'GET', '/me', undefined, { authorization: `bearer ${ada.token}` });
  t.equal(lowercase.status, 200, 'the scheme is case-insensitive (RFC 6750 §2.1)');

  const extra = await developer(lanyard, clock, 'Ada');
  t.equal((await call(extra.token, 'GET', '/me')).status, 200);
  t.equal((await call(extra.token, 'DELETE', `/tokens/${extra.tokenId}`)).status, 204, 'a token may revoke itself');
  const revoked = await call(extra.token, 'GET', '/me');
  t.equal(revoked.status, 401, 'revoked: refused at once');
  t.match(revoked.json, { error: 'invalid_token' });
});

t.test('authentication: a token in the URL is refused, even with a good header, and never logged', async (t) => {
  const secret = ada.token.split('_').slice(2).join('_');
  const logged = () => lanyard.logs.some((l) => l.includes(secret));
  for (const query of [`access_token=${ada.token}`, `ACCESS_TOKEN=${ada.token}`, `x=${encodeURIComponent(ada.token)}`, ada.token]) {
    const res = await call(ada.token, 'GET', `/me?${query}`);
    t.equal(res.status, 400, query.slice(0, 14));
    t.match(res.json, { error: 'invalid_request', error_description: /only in the Authorization header/, fields: [{ path: '/access_token' }] });
    t.match(res.headers.get('www-authenticate'), /error="invalid_request"/);
    // RFC 6750's own parameter is redacted from request logs (src/logging.ts); other names are refused all the same.
    if (query.toLowerCase().startsWith('access_token=')) t.notOk(logged(), 'the token is not in the logs');
  }
  const noHeader = await call(undefined, 'GET', `/apps?access_token=${ada.token}`);
  t.equal(noHeader.status, 400, 'without a header too: the query method is not offered at all');
  t.equal((await call(undefined, 'GET', `/openapi.json?access_token=${ada.token}`)).status, 400, 'not even on the public document');
});

t.test('expiry: a token stops working at its expiry (moved clock)', async (t) => {
  const late = await developer(lanyard, clock, 'Late');
  const { json: created } = await call(late.token, 'POST', '/tokens', { label: 'one day', expires_in_days: 1, password: PASSWORD });
  t.equal((await call(created.token, 'GET', '/me')).status, 200);
  const at = clock.now();
  clock.set(new Date(Date.parse(created.expires_at) - 1000));
  t.equal((await call(created.token, 'GET', '/me')).status, 200, 'a second before');
  clock.set(new Date(created.expires_at));
  const expired = await call(created.token, 'GET', '/me');
  t.equal(expired.status, 401, 'at its expiry');
  t.match(expired.headers.get('www-authenticate'), /error="invalid_token"/);
  t.equal((await call(late.token, 'GET', '/me')).status, 200, 'a longer-lived token still works');
  const listed = await call(late.token, 'GET', '/tokens');
  t.ok(listed.json.some((x: { id: string }) => x.id === created.id), 'an expired token is still listed until revoked');
  clock.set(at);
});

t.test('GET /me', async (t) => {
  const me = await call(ada.token, 'GET', '/me');
  t.equal(me.status, 200);
  t.same(me.json, { id: ada.account.id, email: ada.account.email, display_name: 'Ada', totp_enabled: true });
  t.match((await call(bob.token, 'GET', '/me')).json, { display_name: 'Bob', totp_enabled: false });
  t.equal(me.headers.get('cache-control'), 'no-store');
});

t.test('tokens: list, create (shown once, no-store), revoke; validation with field paths', async (t) => {
  const dev = await developer(lanyard, clock, 'Tok');
  clock.advance(1000); // listed oldest first: give each token its own instant
  const created = await call(dev.token, 'POST', '/tokens', { label: 'deploys', expires_in_days: 30, password: PASSWORD });
  t.equal(created.status, 201);
  t.equal(created.headers.get('cache-control'), 'no-store', 'an answer with a secret is never cached');
  t.match(created.json, { id: /^[0-9a-f]{16}$/, token: /^lyd_[0-9a-f]{16}_/, label: 'deploys', created_at: clock.now().toISOString() });
  t.equal(created.json.hint, created.json.token.slice(-4));
  t.equal(Date.parse(created.json.expires_at) - clock.now().getTime(), 30 * 86_400_000);
  t.equal((await call(created.json.token, 'GET', '/me')).json.id, dev.account.id, 'the new token works');
  clock.advance(1000);
  const outlives = await call(created.json.token, 'POST', '/tokens', { label: 'longer', expires_in_days: 30, password: PASSWORD });
  t.equal(outlives.status, 400, 'a token cannot make one that outlives it');
  t.same(paths(outlives), ['/expires_in_days']);
  t.match(outlives.json.fields[0].message, /expire before it does/);
  const shorter = await call(created.json.token, 'POST', '/tokens', { label: 'shorter', expires_in_days: 29, password: PASSWORD });
  t.equal(shorter.status, 201, 'a shorter one, yes');
  t.equal((await call(dev.token, 'DELETE', `/tokens/${shorter.json.id}`)).status, 204);
  clock.advance(1000);
  const defaulted = await call(dev.token, 'POST', '/tokens', { label: 'default expiry', password: PASSWORD });
  t.equal(Date.parse(defaulted.json.expires_at) - clock.now().getTime(), 30 * 86_400_000, '30 days by default');

  const list = await call(dev.token, 'GET', '/tokens');
  t.equal(list.status, 200);
  t.same(list.json.map((x: { label: string }) => x.label), ["Tok's script", 'deploys', 'default expiry']);
  t.notOk(JSON.stringify(list.json).includes(created.json.token.split('_').slice(2).join('_')), 'no secret in the list'); // the secret may hold '_' itself
  t.notOk('token' in list.json[1] || 'hash' in list.json[1]);
  t.ok(list.json[0].last_used_at, 'last used: set by the calls just made');

  const refusals: [unknown, string[], string][] = [
    [{}, ['/label'], 'label missing'],
    [{ label: '' }, ['/label'], 'empty label'],
    [{ label: '   ' }, ['/label'], 'blank label (the service refuses it)'],
    [{ label: 'x'.repeat(61) }, ['/label'], '61 characters'],
    [{ label: 'x', scopes: ['all'] }, ['/scopes'], 'an unknown field'],
    [{ label: 'x', expires_in_days: 0 }, ['/expires_in_days'], 'zero days'],
    [{ label: 'x', expires_in_days: 91 }, ['/expires_in_days'], 'over 90 days'],
    [{ label: 'x', expires_in_days: '30' }, ['/expires_in_days'], 'a string is not coerced'],
    [{ label: 7, expires_in_days: 1.5 }, ['/label', '/expires_in_days'], 'every problem at once'],
    [[{ label: 'x' }], [''], 'not an object'],
  ];
  for (const [input, expected, what] of refusals) {
    const res = await call(dev.token, 'POST', '/tokens', Array.isArray(input) ? input : { ...(input as object), password: PASSWORD });
    t.equal(res.status, 400, what);
    t.equal(res.json.error, 'invalid_request', what);
    t.same(paths(res), expected, what);
    t.type(res.json.error_description, 'string');
  }
  t.equal((await call(dev.token, 'GET', '/tokens')).json.length, 3, 'nothing created by a refusal');

  t.equal((await call(ada.token, 'DELETE', `/tokens/${created.json.id}`)).status, 404, 'another developer’s token: not found');
  t.equal((await call(created.json.token, 'GET', '/me')).status, 200, 'and it still works');
  const revoked = await call(dev.token, 'DELETE', `/tokens/${created.json.id}`);
  t.equal(revoked.status, 204);
  t.equal(revoked.headers.get('cache-control'), 'no-store');
  t.equal((await call(created.json.token, 'GET', '/me')).status, 401);
  const again = await call(dev.token, 'DELETE', `/tokens/${created.json.id}`);
  t.equal(again.status, 404);
  t.equal(again.json.error, 'not_found');
});

t.test('apps: register, list, read, change, delete; validation with field paths', async (t) => {
  const created = await call(ada.token, 'POST', '/apps', { name: 'Reading Quest', description: 'Books for years 3 to 6', homepage_url: 'https://quest.example/' });
  t.equal(created.status, 201);
  const app = created.json;
  t.match(app, {
    client_id: /^app_[0-9a-f]{32}$/, name: 'Reading Quest', description: 'Books for years 3 to 6', homepage_url: 'https://quest.example/',
    status: 'development', redirect_uris: [], default_scopes: ['openid'], role: 'owner',
  });
  for (const absent of ['logo_url', 'logout_url', 'initiate_login_uri', 'review_note']) t.notOk(absent in app, `${absent} absent, not null`);
  t.notOk(JSON.stringify(app).includes('null'));
  t.equal(created.headers.get('cache-control'), 'no-store');

  const list = await call(ada.token, 'GET', '/apps');
  t.ok(list.json.some((a: { client_id: string }) => a.client_id === app.client_id));
  t.same((await call(ada.token, 'GET', `/apps/${app.client_id}`)).json, app);

  // A logo URL is fetched when set: test/integration/app-logos.test.ts.
  const changed = await call(ada.token, 'PATCH', `/apps/${app.client_id}`, { name: 'Reading Quest 2', description: '' });
  t.equal(changed.status, 200);
  t.match(changed.json, { name: 'Reading Quest 2', homepage_url: 'https://quest.example/' });
  t.notOk('description' in changed.json, 'an empty string cleared the description');

  for (const [input, expected, what] of [
    [{}, ['/name'], 'no name'],
    [{ name: '' }, ['/name'], 'empty name'],
    [{ name: 'x'.repeat(81) }, ['/name'], 'too long'],
    [{ name: 'x', homepage_url: 'http://quest.example/' }, ['/homepage_url'], 'plain http on a public host (service rule)'],
    [{ name: 'x', logo_url: 'ftp://quest.example/x.png' }, ['/logo_url'], 'not https'],
    [{ name: 'x', client_id: 'mine' }, ['/client_id'], 'an unknown field'],
    [{ name: ' ', homepage_url: 'nope' }, ['/name', '/homepage_url'], 'every problem at once (service)'],
  ] as [unknown, string[], string][]) {
    const res = await call(ada.token, 'POST', '/apps', input);
    t.equal(res.status, 400, what);
    t.same(paths(res), expected, what);
  }
  const emptyPatch = await call(ada.token, 'PATCH', `/apps/${app.client_id}`, {});
  t.equal(emptyPatch.status, 400, 'a PATCH that changes nothing');
  t.same(paths(emptyPatch), ['']);
  t.same(paths(await call(ada.token, 'PATCH', `/apps/${app.client_id}`, { status: 'live' })), ['/status'], 'status cannot be patched');
  t.same(paths(await call(ada.token, 'PATCH', `/apps/${app.client_id}`, { name: '' })), ['/name'], 'the name cannot be cleared');

  const notJson = await call(ada.token, 'POST', '/apps', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
  t.equal(notJson.status, 415, 'JSON only');
  t.equal(notJson.json.error, 'invalid_request');
  const broken = await call(ada.token, 'POST', '/apps', '{"name":', {});
  t.equal(broken.status, 400);
  t.equal(broken.json.error, 'invalid_request');
  const polluted = await call(ada.token, 'POST', '/apps', '{"name":"x","__proto__":{"admin":true}}');
  t.equal(polluted.status, 400, 'prototype pollution refused');
  const huge = await call(ada.token, 'POST', '/apps', { name: 'x', description: 'y'.repeat(20_000) });
  t.equal(huge.status, 413, 'a body over 16 KiB');
  t.equal(huge.json.error, 'invalid_request');

  const mine = await call(ada.token, 'POST', '/apps', { name: 'To delete' });
  const deleted = await call(ada.token, 'DELETE', `/apps/${mine.json.client_id}`);
  t.equal(deleted.status, 204);
  t.equal((await call(ada.token, 'GET', `/apps/${mine.json.client_id}`)).status, 404);
  t.equal((await call(ada.token, 'DELETE', `/apps/${mine.json.client_id}`)).status, 404);
  const unknown = await call(ada.token, 'GET', '/apps/app_nope');
  t.equal(unknown.status, 404);
  t.match(unknown.json, { error: 'not_found', error_description: /no such app/i });
  const noRoute = await call(ada.token, 'GET', '/nothing-here');
  t.equal(noRoute.status, 404);
  t.match(noRoute.json, { error: 'not_found' });
  t.equal(noRoute.headers.get('cache-control'), 'no-store');
});

t.test('callback URLs, default scopes, logout URL', async (t) => {
  const { json: app } = await call(ada.token, 'POST', '/apps', { name: 'Settings' });
  const id = app.client_id as string;
  const added = await call(ada.token, 'POST', `/apps/${id}/redirect_uris`, { redirect_uri: 'https://settings.example/cb' });
  t.equal(added.status, 201);
  t.same(added.json.redirect_uris, ['https://settings.example/cb']);
  await call(ada.token, 'POST', `/apps/${id}/redirect_uris`, { redirect_uri: 'http://127.0.0.1:9000/cb' });
  for (const [input, what] of [
    [{ redirect_uri: 'https://settings.example/cb#x' }, 'a fragment'],
    [{ redirect_uri: 'https://*.settings.example/cb' }, 'a wildcard'],
    [{ redirect_uri: 'http://settings.example/cb' }, 'plain http off loopback'],
    [{ redirect_uri: 'https://settings.example/cb' }, 'already registered'],
    [{ redirect_uri: '' }, 'empty'],
    [{}, 'missing'],
    [{ redirect_uri: ['https://a.example/'] }, 'not a string'],
  ] as [unknown, string][]) {
    const res = await call(ada.token, 'POST', `/apps/${id}/redirect_uris`, input);
    t.equal(res.status, 400, what);
    t.same(paths(res), ['/redirect_uri'], what);
    t.ok(res.json.fields[0].message.length > 5, `${what}: a message saying what is wrong`);
  }
  const extra = await call(ada.token, 'POST', `/apps/${id}/redirect_uris`, { redirect_uri: 'https://a.example/', uri: 'x' });
  t.same(paths(extra), ['/uri']);

  const removed = await call(ada.token, 'DELETE', `/apps/${id}/redirect_uris?redirect_uri=${encodeURIComponent('http://127.0.0.1:9000/cb')}`);
  t.equal(removed.status, 200);
  t.same(removed.json.redirect_uris, ['https://settings.example/cb']);
  const noQuery = await call(ada.token, 'DELETE', `/apps/${id}/redirect_uris`);
  t.equal(noQuery.status, 400);
  t.same(paths(noQuery), ['/redirect_uri']);
  t.match(noQuery.json.error_description, /query parameters/);
  t.equal((await call(ada.token, 'DELETE', `/apps/${id}/redirect_uris?redirect_uri=${encodeURIComponent('https://other.example/')}`)).status, 404, 'not registered');

  const none = await call(ada.token, 'PUT', `/apps/${id}/default_scopes`, { default_scopes: [] });
  t.equal(none.status, 200);
  t.same(none.json.default_scopes, []);
  t.same((await call(ada.token, 'PUT', `/apps/${id}/default_scopes`, { default_scopes: ['openid'] })).json.default_scopes, ['openid']);
  for (const [input, expected, what] of [
    [{ default_scopes: ['admin'] }, ['/default_scopes'], 'a scope Lanyard does not offer'],
    [{ default_scopes: 'openid' }, ['/default_scopes'], 'not a list'],
    [{ default_scopes: ['openid', 'openid'] }, ['/default_scopes'], 'duplicates'],
    [{ default_scopes: [''] }, ['/default_scopes/0'], 'an empty scope'],
    [{}, ['/default_scopes'], 'missing'],
  ] as [unknown, string[], string][]) {
    const res = await call(ada.token, 'PUT', `/apps/${id}/default_scopes`, input);
    t.equal(res.status, 400, what);
    t.same(paths(res), expected, what);
  }

  const set = await call(ada.token, 'PUT', `/apps/${id}/logout_url`, { logout_url: 'https://settings.example/bye' });
  t.equal(set.status, 200);
  t.equal(set.json.logout_url, 'https://settings.example/bye');
  for (const input of [{ logout_url: 'javascript:alert(1)' }, { logout_url: 'http://settings.example/bye' }, {}]) {
    const res = await call(ada.token, 'PUT', `/apps/${id}/logout_url`, input);
    t.equal(res.status, 400, JSON.stringify(input));
    t.same(paths(res), ['/logout_url']);
  }
  const cleared = await call(ada.token, 'DELETE', `/apps/${id}/logout_url`);
  t.equal(cleared.status, 200);
  t.notOk('logout_url' in cleared.json, 'cleared: absent');
});

t.test('initiate login URI: set, shown, changed, cleared; each refusal with its field path and message; in the history', async (t) => {
  const { json: app } = await call(ada.token, 'POST', '/apps', { name: 'Launcher' });
  const id = app.client_id as string;
  const stored = async () => (await lanyard.store.findClient(id))?.initiateLoginUri;
  t.notOk('initiate_login_uri' in app, 'none at first: absent');

  clock.advance(1000);
  const set = await call(ada.token, 'PUT', `/apps/${id}/initiate_login_uri`, { initiate_login_uri: 'https://launcher.example/start' });
  t.equal(set.status, 200);
  t.equal(set.headers.get('cache-control'), 'no-store');
  t.equal(set.json.initiate_login_uri, 'https://launcher.example/start', 'the answer is the app with it');
  t.equal(await stored(), 'https://launcher.example/start', 'stored');
  t.equal((await call(ada.token, 'GET', `/apps/${id}`)).json.initiate_login_uri, 'https://launcher.example/start', 'shown back');
  t.ok((await call(ada.token, 'GET', '/apps')).json.some((a: { client_id: string; initiate_login_uri?: string }) =>
    a.client_id === id && a.initiate_login_uri === 'https://launcher.example/start'), 'and in the list');

  for (const [input, message, what] of [
    [{ initiate_login_uri: 'not-a-url' }, /^An initiate login URI must be an absolute URL/, 'not a URL'],
    [{ initiate_login_uri: 'ftp://launcher.example/start' }, /^An initiate login URI must start with https:\/\/.*ftp: URLs are not accepted/, 'ftp:'],
    [{ initiate_login_uri: 'http://launcher.example/start' }, /^An initiate login URI must use https:\/\/\. Plain http:\/\/ is allowed only on your own machine/, 'http off loopback'],
    [{ initiate_login_uri: 'https://launcher.example/start#go' }, /^An initiate login URI cannot contain a fragment/, 'a fragment'],
    [{ initiate_login_uri: 'https://ada:pw@launcher.example/start' }, /^An initiate login URI cannot contain a user name or password/, 'user info'],
    [{ initiate_login_uri: 'https://*.launcher.example/start' }, /^An initiate login URI cannot contain a wildcard/, 'a wildcard'],
    [{ initiate_login_uri: `https://launcher.example/${'a'.repeat(2000)}` }, /2000/, 'too long (the schema)'],
    [{ initiate_login_uri: 42 }, /string/, 'not a string'],
    [{}, /is required/, 'missing'],
  ] as [unknown, RegExp, string][]) {
    const res = await call(ada.token, 'PUT', `/apps/${id}/initiate_login_uri`, input);
    t.equal(res.status, 400, what);
    t.equal(res.json.error, 'invalid_request', what);
    t.same(paths(res), ['/initiate_login_uri'], `${what}: the field's path`);
    t.match(res.json.fields[0].message, message, `${what}: its message`);
  }
  t.same(paths(await call(ada.token, 'PUT', `/apps/${id}/initiate_login_uri`, { initiate_login_uri: 'https://launcher.example/x', url: 'x' })), ['/url'], 'an unknown field');
  t.equal(await stored(), 'https://launcher.example/start', 'no refusal changed it');

  clock.advance(1000);
  const changed = await call(ada.token, 'PUT', `/apps/${id}/initiate_login_uri`, { initiate_login_uri: 'http://127.0.0.1:9000/start?x=1' });
  t.equal(changed.status, 200, 'http on loopback');
  t.equal(changed.json.initiate_login_uri, 'http://127.0.0.1:9000/start?x=1');
  clock.advance(1000);
  const cleared = await call(ada.token, 'DELETE', `/apps/${id}/initiate_login_uri`);
  t.equal(cleared.status, 200);
  t.notOk('initiate_login_uri' in cleared.json, 'cleared: absent, not null');
  t.notOk(JSON.stringify(cleared.json).includes('null'));
  t.equal(await stored(), undefined, 'cleared in the store');
  t.equal((await call(ada.token, 'DELETE', `/apps/${id}/initiate_login_uri`)).status, 200, 'clearing again is no error');
  clock.advance(1000);
  await call(ada.token, 'PUT', `/apps/${id}/initiate_login_uri`, { initiate_login_uri: 'https://launcher.example/again' });
  clock.advance(1000);
  const emptied = await call(ada.token, 'PUT', `/apps/${id}/initiate_login_uri`, { initiate_login_uri: '' });
  t.equal(emptied.status, 200, "'' clears it, as for logout_url");
  t.notOk('initiate_login_uri' in emptied.json);

  const history = await call(ada.token, 'GET', `/apps/${id}/history`);
  t.same(history.json.map((e: { action: string }) => e.action), [
    'initiate_login_uri.cleared', 'initiate_login_uri.set', 'initiate_login_uri.cleared', 'initiate_login_uri.set', 'initiate_login_uri.set', 'app.registered',
  ], 'each change once, newest first; nothing for a refusal or a clear that changed nothing');
  t.match(history.json[3], { at: String, actor: { id: ada.account.id, name: 'Ada' }, detail: { url: 'http://127.0.0.1:9000/start?x=1' } });
  t.same(history.json[4].detail, { url: 'https://launcher.example/start' });
  t.same(history.json[2].detail, {});
});

t.test('secrets: create (shown once, no-store), list without values, revoke; validation', async (t) => {
  const { json: app } = await call(ada.token, 'POST', '/apps', { name: 'Secrets' });
  const id = app.client_id as string;
  t.same((await call(ada.token, 'GET', `/apps/${id}/secrets`)).json, []);
  const expiresAt = new Date(clock.now().getTime() + 30 * 86_400_000).toISOString();
  const created = await call(ada.token, 'POST', `/apps/${id}/secrets`, { label: 'Production', expires_at: expiresAt });
  t.equal(created.status, 201);
  t.equal(created.headers.get('cache-control'), 'no-store', 'REQUIRED on an answer with a secret');
  t.match(created.json, { id: /^sec_/, label: 'Production', expires_at: expiresAt, created_at: clock.now().toISOString() });
  t.ok(created.json.secret.length >= 43, '256 bits');
  t.equal(created.json.hint, created.json.secret.slice(-4));
  const list = await call(ada.token, 'GET', `/apps/${id}/secrets`);
  t.equal(list.headers.get('cache-control'), 'no-store');
  t.same(list.json, [{ id: created.json.id, label: 'Production', hint: created.json.hint, created_at: created.json.created_at, expires_at: expiresAt }]);
  t.notOk(JSON.stringify(list.json).includes(created.json.secret));

  for (const [input, expected, what] of [
    [{}, ['/label'], 'no label'],
    [{ label: '' }, ['/label'], 'empty label'],
    [{ label: 'x'.repeat(61) }, ['/label'], 'too long'],
    [{ label: 'x', expires_at: 'tomorrow' }, ['/expires_at'], 'not a date-time'],
    [{ label: 'x', expires_at: '2020-01-01T00:00:00Z' }, ['/expires_at'], 'in the past (service rule)'],
    [{ label: 'x', secret: 'my-own-secret' }, ['/secret'], 'a chosen secret is not a field'],
  ] as [unknown, string[], string][]) {
    const res = await call(ada.token, 'POST', `/apps/${id}/secrets`, input);
    t.equal(res.status, 400, what);
    t.same(paths(res), expected, what);
  }
  const second = await call(ada.token, 'POST', `/apps/${id}/secrets`, { label: 'Rotation' });
  t.notOk('expires_at' in second.json, 'no expiry: absent');
  t.equal((await call(ada.token, 'GET', `/apps/${id}/secrets`)).json.length, 2, 'several at once');
  const revoked = await call(ada.token, 'DELETE', `/apps/${id}/secrets/${created.json.id}`);
  t.equal(revoked.status, 204);
  t.same((await call(ada.token, 'GET', `/apps/${id}/secrets`)).json.map((s: { id: string }) => s.id), [second.json.id]);
  t.equal((await call(ada.token, 'DELETE', `/apps/${id}/secrets/${created.json.id}`)).status, 404);

  const history = await call(ada.token, 'GET', `/apps/${id}/history`);
  t.notOk(JSON.stringify(history.json).includes(created.json.secret), 'the history never shows a secret');
  t.notOk(lanyard.logs.some((l) => l.includes(created.json.secret) || l.includes(second.json.secret)), 'nor do the logs');
});

t.test('team: list, invite by email (accepted, declined, withdrawn), remove; a removed member loses access at once', async (t) => {
  const { json: app } = await call(ada.token, 'POST', '/apps', { name: 'Team' });
  const id = app.client_id as string;
  const team = await call(ada.token, 'GET', `/apps/${id}/team`);
  t.same(team.json.map((m: { developer_id: string; role: string }) => [m.developer_id, m.role]), [[ada.account.id, 'owner']]);
  t.match(team.json[0], { email: ada.account.email, display_name: 'Ada', added_at: String });

  t.equal((await call(bob.token, 'GET', `/apps/${id}`)).status, 404, 'not in the team yet');
  const added = await call(ada.token, 'POST', `/apps/${id}/team`, { email: bob.account.email.toUpperCase() });
  t.equal(added.status, 202);
  t.match(added.json, { email: bob.account.email, status: 'invitation_recorded', link: /\/developer\/team-invitations\//, link_expires_at: String });
  const nobody = await call(ada.token, 'POST', `/apps/${id}/team`, { email: 'Nobody.Here@example.com' });
  t.equal(nobody.status, added.status, 'an address without an account: the same status');
  t.same(Object.keys(nobody.json).sort(), Object.keys(added.json).sort(), 'and the same answer');
  t.match(nobody.json, { email: 'nobody.here@example.com', status: 'invitation_recorded' });
  const listed = (await call(ada.token, 'GET', `/apps/${id}/team`)).json;
  // Invited at the same instant (the manual clock): listed in id order, which says nothing either.
  const byId = (a: { developer_id: string }, b: { developer_id: string }) => a.developer_id.localeCompare(b.developer_id);
  const invitedNow = listed.filter((m: { role: string }) => m.role === 'invited').sort(byId);
  t.same(invitedNow.map((m: { developer_id: string; email: string; display_name: string }) => [m.developer_id, m.email, m.display_name]), [
    ['address:nobody.here@example.com', 'nobody.here@example.com', 'nobody.here@example.com'],
    [`address:${bob.account.email}`, bob.account.email, bob.account.email],
  ].sort((x, y) => x[0]!.localeCompare(y[0]!)), 'both invitations listed alike, each by the address typed, never an account’s name or id: the list does not tell which address has an account');
  t.same(listed.filter((m: { role: string }) => m.role !== 'invited').map((m: { developer_id: string }) => m.developer_id), [ada.account.id]);
  t.equal((await call(ada.token, 'POST', `/apps/${id}/team`, { email: 'gone@example.com' })).status, 202);
  t.equal((await call(ada.token, 'DELETE', `/apps/${id}/team/${encodeURIComponent('address:gone@example.com')}`)).status, 204, 'an invitation to an address is withdrawn by its id');
  t.notOk((await call(ada.token, 'GET', `/apps/${id}/team`)).json.some((m: { email: string }) => m.email === 'gone@example.com'), 'and gone');

  // Invited, not accepted: nothing of the app, as for a stranger.
  for (const [method, path, input] of [
    ['GET', `/apps/${id}`], ['GET', `/apps/${id}/team`], ['GET', `/apps/${id}/secrets`], ['POST', `/apps/${id}/secrets`, { label: 'sneaky' }],
    ['POST', `/apps/${id}/redirect_uris`, { redirect_uri: 'https://evil.example/cb' }], ['DELETE', `/apps/${id}/team/${bob.account.id}`],
  ] as [string, string, unknown?][]) {
    const res = await call(bob.token, method, path, input);
    t.equal(res.status, 404, `invited: ${method} ${path.replace(id, '{id}')} is 404`);
  }
  t.match(await call(bob.token, 'GET', `/apps/${id}`), { json: (await call(bob.token, 'GET', '/apps/app_00000000000000000000000000000000')).json });
  t.notOk((await call(bob.token, 'GET', '/apps')).json.some((a: { client_id: string }) => a.client_id === id), 'not among their apps');
  t.same((await call(ada.token, 'GET', `/apps/${id}`)).json.redirect_uris, [], 'no callback added');
  t.same((await call(ada.token, 'GET', `/apps/${id}/secrets`)).json, [], 'no secret made');
  const invitations = await call(bob.token, 'GET', '/invitations');
  t.equal(invitations.status, 200);
  t.match(invitations.json, [{ client_id: id, app_name: 'Team', invited_by: { id: ada.account.id, name: 'Ada' }, invited_at: String }]);
  t.equal(invitations.json.length, 1);
  t.same((await call(ada.token, 'GET', '/invitations')).json, [], 'the owner has none');
  t.match(await call(ada.token, 'POST', `/invitations/${id}/accept`), { status: 404, json: { error: 'not_found' } }, 'no invitation: 404');

  // Declined: gone. Withdrawn: gone. Then accepted.
  t.equal((await call(bob.token, 'POST', `/invitations/${id}/decline`)).status, 204);
  t.same((await call(bob.token, 'GET', '/invitations')).json, []);
  t.match(await call(bob.token, 'POST', `/invitations/${id}/decline`), { status: 404, json: { error: 'not_found', error_description: /no invitation/ } });
  t.notOk((await call(ada.token, 'GET', `/apps/${id}/team`)).json.some((m: { developer_id: string }) => m.developer_id === bob.account.id), 'declined: not in the team');
  t.equal((await call(ada.token, 'POST', `/apps/${id}/team`, { email: bob.account.email })).status, 202);
  t.equal((await call(ada.token, 'DELETE', `/apps/${id}/team/${bob.account.id}`)).status, 404, 'an invitation is not withdrawn by the account’s id');
  t.equal((await call(ada.token, 'DELETE', `/apps/${id}/team/${encodeURIComponent(`address:${bob.account.email}`)}`)).status, 204, 'the owner withdraws the invitation');
  t.equal((await call(bob.token, 'POST', `/invitations/${id}/accept`)).status, 404, 'withdrawn: nothing to accept');
  t.equal((await call(ada.token, 'POST', `/apps/${id}/team`, { email: bob.account.email })).status, 202);
  const accepted = await call(bob.token, 'POST', `/invitations/${id}/accept`);
  t.equal(accepted.status, 200);
  t.match(accepted.json, { client_id: id, name: 'Team', role: 'member' });
  t.equal((await call(bob.token, 'POST', `/invitations/${id}/accept`)).status, 404, 'accepted once');
  t.match((await call(ada.token, 'GET', `/apps/${id}/team`)).json.find((m: { developer_id: string }) => m.developer_id === bob.account.id),
    { developer_id: bob.account.id, email: bob.account.email, display_name: 'Bob', role: 'member' }, 'a member: by name');

  // The address without an account: whoever makes an account with it finds the invitation waiting.
  const later = await createDeveloper(lanyard, { email: 'nobody.here@example.com', name: 'Nobody', clock });
  const laterAccount = (await lanyard.store.findDeveloper(later.id))!;
  const { token: laterToken } = await new ApiTokens({ store: lanyard.store, clock, log: quiet }).create(laterAccount, { label: 'later', expiresInDays: 30 });
  t.match((await call(laterToken, 'GET', '/invitations')).json, [{ client_id: id, app_name: 'Team', invited_by: { id: ada.account.id } }], 'the new account has the invitation');
  t.ok((await call(ada.token, 'GET', `/apps/${id}/team`)).json.some((m: { developer_id: string }) => m.developer_id === 'address:nobody.here@example.com'), 'still listed by the address alone');
  t.equal((await call(laterToken, 'POST', `/invitations/${id}/accept`)).status, 200, 'and accepts it');
  t.notOk((await call(ada.token, 'GET', `/apps/${id}/team`)).json.some((m: { developer_id: string }) => m.developer_id.startsWith('address:')), 'accepted: no longer held by the address');
  t.equal((await call(ada.token, 'DELETE', `/apps/${id}/team/${later.id}`)).status, 204);
  const asBob = await call(bob.token, 'GET', `/apps/${id}`);
  t.equal(asBob.status, 200);
  t.equal(asBob.json.role, 'member');
  t.ok((await call(bob.token, 'GET', '/apps')).json.some((a: { client_id: string }) => a.client_id === id));

  for (const [input, expected, what] of [
    [{ email: bob.account.email }, ['/email'], 'already in the team (service)'],
    [{ email: 'not an address' }, ['/email'], 'not an email address (service)'],
    [{}, ['/email'], 'missing'],
    [{ email: 'a@b.c', role: 'owner' }, ['/role'], 'the role is not chosen here'],
  ] as [unknown, string[], string][]) {
    const res = await call(ada.token, 'POST', `/apps/${id}/team`, input);
    t.equal(res.status, 400, what);
    t.same(paths(res), expected, what);
  }
  const carol = await developer(lanyard, clock, 'Carol');
  const byMember = await call(bob.token, 'POST', `/apps/${id}/team`, { email: carol.account.email });
  t.equal(byMember.status, 403, 'only owners add members');
  t.equal(byMember.json.error, 'forbidden');
  t.equal((await call(bob.token, 'DELETE', `/apps/${id}/team/${ada.account.id}`)).status, 403, 'a member cannot remove the owner');
  t.equal((await call(bob.token, 'DELETE', `/apps/${id}`)).status, 403, 'a member cannot delete the app');
  const lastOwner = await call(ada.token, 'DELETE', `/apps/${id}/team/${ada.account.id}`);
  t.equal(lastOwner.status, 409, 'the last owner cannot leave');
  t.equal(lastOwner.json.error, 'conflict');

  t.equal((await call(ada.token, 'DELETE', `/apps/${id}/team/${bob.account.id}`)).status, 204);
  for (const [method, path] of [['GET', `/apps/${id}`], ['GET', `/apps/${id}/secrets`], ['POST', `/apps/${id}/secrets`]] as const) {
    const res = await call(bob.token, method, path, method === 'POST' ? { label: 'sneaky' } : undefined);
    t.equal(res.status, 404, `removed: ${method} ${path} at once`);
  }
  t.notOk((await call(bob.token, 'GET', '/apps')).json.some((a: { client_id: string }) => a.client_id === id));
  t.equal((await call(ada.token, 'DELETE', `/apps/${id}/team/${bob.account.id}`)).status, 404, 'no longer a member');
});

t.test('history and going live', async (t) => {
  const { json: app } = await call(ada.token, 'POST', '/apps', { name: 'Live' });
  const id = app.client_id as string;
  const early = await call(ada.token, 'POST', `/apps/${id}/go-live`);
  t.equal(early.status, 409, 'no callback URL yet');
  t.match(early.json, { error: 'conflict', error_description: /callback URL/ });
  clock.advance(1000); // the history is newest first: give each change its own instant
  await call(ada.token, 'POST', `/apps/${id}/redirect_uris`, { redirect_uri: 'https://live.example/cb' });
  clock.advance(1000);
  const live = await call(ada.token, 'POST', `/apps/${id}/go-live`, '', { 'content-type': 'application/json' });
  t.equal(live.status, 200, 'an empty JSON body is no body');
  t.equal(live.json.status, 'pending');
  t.equal((await call(ada.token, 'POST', `/apps/${id}/go-live`)).status, 409, 'twice');

  const history = await call(ada.token, 'GET', `/apps/${id}/history`);
  t.equal(history.status, 200);
  t.same(history.json.map((e: { action: string }) => e.action).slice(0, 3), ['app.live_requested', 'callback.added', 'app.registered'], 'newest first');
  t.match(history.json[0], { at: String, actor: { id: ada.account.id, name: 'Ada' }, detail: Object });
  t.same(history.json[1].detail, { url: 'https://live.example/cb' });
  t.equal((await call(ada.token, 'GET', `/apps/${id}/history?limit=1`)).json.length, 1);
  for (const q of ['limit=0', 'limit=201', 'limit=abc', 'limit=1.5']) {
    const res = await call(ada.token, 'GET', `/apps/${id}/history?${q}`);
    t.equal(res.status, 400, q);
    t.same(paths(res), ['/limit'], q);
  }
});

t.test('sandbox: the school and its test users’ credentials', async (t) => {
  const res = await call(ada.token, 'GET', '/sandbox');
  t.equal(res.status, 200);
  t.equal(res.headers.get('cache-control'), 'no-store');
  t.match(res.json.organisation, { slug: 'sandbox', name: String, id: String });
  const byUser = Object.fromEntries(res.json.users.map((u: { username: string }) => [u.username, u]));
  t.match(byUser.teacher, { type: 'employee', password: String });
  t.match(byUser['emoji-pupil'], { type: 'student', emoji: [{ name: String, glyph: String }] });
  t.match(byUser['badge-pupil'], { badge: { code: String, qr_data_url: /^data:image\/png;base64,/ } });
  t.match(byUser['password-pupil'], { password: String });
  t.match(byUser.admin, { type: 'admin', password: String });
  t.equal((await call(undefined, 'GET', '/sandbox')).status, 401, 'developers only');
});

t.test('authorisation: a token of one developer reaches nothing of another’s app (404 everywhere)', async (t) => {
  const { json: app } = await call(ada.token, 'POST', '/apps', { name: 'Private' });
  const id = app.client_id as string;
  await call(ada.token, 'POST', `/apps/${id}/redirect_uris`, { redirect_uri: 'https://private.example/cb' });
  const { json: secret } = await call(ada.token, 'POST', `/apps/${id}/secrets`, { label: 'kept' });
  const attempts: [string, string, unknown?][] = [
    ['GET', `/apps/${id}`],
    ['PATCH', `/apps/${id}`, { name: 'Mine now' }],
    ['DELETE', `/apps/${id}`],
    ['POST', `/apps/${id}/redirect_uris`, { redirect_uri: 'https://evil.example/cb' }],
    ['DELETE', `/apps/${id}/redirect_uris?redirect_uri=${encodeURIComponent('https://private.example/cb')}`],
    ['GET', `/apps/${id}/secrets`],
    ['POST', `/apps/${id}/secrets`, { label: 'stolen' }],
    ['DELETE', `/apps/${id}/secrets/${secret.id}`],
    ['PUT', `/apps/${id}/default_scopes`, { default_scopes: [] }],
    ['PUT', `/apps/${id}/logout_url`, { logout_url: 'https://evil.example/' }],
    ['DELETE', `/apps/${id}/logout_url`],
    ['PUT', `/apps/${id}/initiate_login_uri`, { initiate_login_uri: 'https://evil.example/launch' }],
    ['DELETE', `/apps/${id}/initiate_login_uri`],
    ['GET', `/apps/${id}/team`],
    ['POST', `/apps/${id}/team`, { email: bob.account.email }],
    ['DELETE', `/apps/${id}/team/${ada.account.id}`],
    ['GET', `/apps/${id}/history`],
    ['POST', `/apps/${id}/go-live`],
  ];
  for (const [method, path, input] of attempts) {
    const res = await call(bob.token, method, path, input);
    t.equal(res.status, 404, `${method} ${path.replace(id, '{id}')}`);
    t.match(res.json, { error: 'not_found' });
  }
  const unknown = await call(bob.token, 'GET', '/apps/app_00000000000000000000000000000000');
  t.same(unknown.json, (await call(bob.token, 'GET', `/apps/${id}`)).json, 'the same answer as for an app that does not exist');
  const after = await call(ada.token, 'GET', `/apps/${id}`);
  t.match(after.json, { name: 'Private', redirect_uris: ['https://private.example/cb'], default_scopes: ['openid'], status: 'development' });
  t.equal((await call(ada.token, 'GET', `/apps/${id}/secrets`)).json.length, 1, 'the secret is still there');
  t.same((await call(ada.token, 'GET', `/apps/${id}/team`)).json.length, 1, 'nobody joined');
  t.notOk((await call(bob.token, 'GET', '/apps')).json.some((a: { client_id: string }) => a.client_id === id), 'not listed');
  t.equal((await call(bob.token, 'GET', '/apps/demo-app')).status, 404, 'config-file clients are nobody’s');
});

t.test('a secret made through the API works at /oauth/token; revoked, it answers invalid_client', async (t) => {
  const { json: app } = await call(ada.token, 'POST', '/apps', { name: 'Token Exchange' });
  const id = app.client_id as string;
  await call(ada.token, 'POST', `/apps/${id}/redirect_uris`, { redirect_uri: CALLBACK });
  const { json: first } = await call(ada.token, 'POST', `/apps/${id}/secrets`, { label: 'first' });
  const { json: second } = await call(ada.token, 'POST', `/apps/${id}/secrets`, { label: 'second' });
  t.equal((await call(ada.token, 'POST', `/apps/${id}/go-live`)).json.status, 'pending');
  await new AppService({ store: lanyard.store, clock, log: quiet }).approve(OPERATOR, id);
  t.equal((await call(ada.token, 'GET', `/apps/${id}`)).json.status, 'live', 'approved by the operator');
  const demo = (await lanyard.store.findOrganisation('demo-school'))!;
  await lanyard.store.putConnection({ organisationId: demo.id, clientId: id, position: 0, source: 'operator', createdAt: new Date().toISOString() });

  const exchange = async (secret: string) => {
    const authorize = `${lanyard.url}/oauth/authorize?client_id=${id}&redirect_uri=${encodeURIComponent(CALLBACK)}&response_type=code&scope=openid&nonce=n-1`;
    const callback = await signIn(new HttpBrowser(), lanyard.url, authorize, TEACHER);
    t.equal(callback.origin + callback.pathname, CALLBACK, 'back at the app with a code');
    return fetch(`${lanyard.url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: CALLBACK }),
    });
  };
  const ok = await exchange(first.secret);
  t.equal(ok.status, 200, 'the first secret');
  t.type(((await ok.json()) as { id_token?: string }).id_token, 'string', 'an ID token for the openid scope');
  t.equal((await exchange(second.secret)).status, 200, 'the second, at the same time');
  t.equal((await call(ada.token, 'DELETE', `/apps/${id}/secrets/${first.id}`)).status, 204);
  const refused = await exchange(first.secret);
  t.equal(refused.status, 401, 'revoked: refused at once');
  t.equal(((await refused.json()) as { error: string }).error, 'invalid_client');
  t.equal((await exchange(second.secret)).status, 200, 'the other one still works');
  const listed = (await call(ada.token, 'GET', `/apps/${id}/secrets`)).json;
  t.ok(listed[0].last_used_at, 'last used is recorded');
});

t.test('a store failure: 503 with Retry-After, in the API’s error shape', async (t) => {
  const own = await startLanyard(t);
  const dev = await developer(own, { now: () => new Date() }, 'Down');
  t.equal((await client(own)(dev.token, 'GET', '/me')).status, 200);
  await own.store.close();
  const res = await client(own)(dev.token, 'GET', '/me');
  t.equal(res.status, 503);
  t.equal(res.headers.get('retry-after'), '5');
  t.equal(res.headers.get('cache-control'), 'no-store');
  t.match(res.json, { error: 'temporarily_unavailable', error_description: String });
});
