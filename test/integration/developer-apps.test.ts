import * as client from 'openid-client';
import t from 'tap';
import type { Clock } from '../../src/clock.js';
import { OPERATOR } from '../../src/developer/actor.js';
import { AppService } from '../../src/developer/app-service.js';
import { sandboxCredentials } from '../../src/developer/sandbox.js';
import { ManualClock } from '../../src/clock.js';
import { createDeveloper, enableDeveloperTotp } from '../helpers/developer.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { startPair } from '../helpers/instances.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { authorizationRequest, relyingParty } from '../helpers/relying-party.js';
import { type Credentials, signIn } from '../helpers/sign-in.js';
import { storedId } from '../../adapters/record-ids.js';

/**
 * The app pages of the developer area over real HTTP on a real SQLite store (docs/developer-area.md): registering,
 * callback URLs with a message for each refusal, secrets shown once and working at /oauth/token (two at once,
 * revoked at once, expired), default scopes, the initiate login URI, the logout URL, deleting, the history, who may see and change
 * what, and CSRF.
 */

const CALLBACK = 'http://localhost:8080/callback';

/** A developer signed in to the developer area in their own cookie-keeping browser. */
interface DeveloperInBrowser {
  id: string;
  email: string;
  /** The browser itself (to turn on two-step sign-in, say). */
  browser: HttpBrowser;
  /** Their session's CSRF token (every form of the session carries it). */
  csrf: string;
  get(path: string): Promise<Response>;
  /** Posts a form with the session's CSRF token. */
  post(path: string, form: Record<string, string>): Promise<Response>;
  /** Posts exactly the given form (a forged request). */
  postWithoutCsrf(path: string, form: Record<string, string>): Promise<Response>;
  /** The apps of their teams, from the store. */
  appsInStore(): Promise<string[]>;
  /** The browser's Cookie header as it is now (to replay it). */
  cookieHeader(): string;
}

/** A developer account made the way people make one (an invitation accepted over HTTP), signed in. */
async function developerIn(lanyard: Lanyard, name: string, clock?: Clock): Promise<DeveloperInBrowser> {
  const { id, email, browser } = await createDeveloper(lanyard, { name, ...(clock ? { clock } : {}) });
  const home = await browser.get(new URL('/developer', lanyard.url));
  const csrf = /name="csrf" value="([^"]+)"/.exec(await home.text())?.[1];
  if (home.status !== 200 || !csrf) throw new Error(`the developer area did not open for ${name}: ${home.status}`);
  const at = (path: string) => new URL(path, lanyard.url);
  return {
    id, email, csrf, browser,
    get: (path) => browser.get(at(path)),
    post: (path, form) => browser.post(at(path), { csrf, ...form }),
    postWithoutCsrf: (path, form) => browser.post(at(path), form),
    appsInStore: async () => (await lanyard.store.listMemberships(id)).map((m) => m.clientId),
    cookieHeader: () => browser.cookieHeader(),
  };
}

/** The page's flash message as it reads (an address in it is marked up to break only after its @ or a dot). */
const flashOf = (page: string) => /<p[^>]*role="status"[^>]*>([\s\S]*?)<\/p>/.exec(page)?.[1]?.replace(/<[^>]+>/g, '').trim();

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** A sandbox school user who signs in with a password (development apps sign in only the sandbox school). */
async function sandboxTeacher(lanyard: Lanyard): Promise<Credentials> {
  const { organisation, users } = await sandboxCredentials(lanyard.store);
  const teacher = users.find((u) => u.username === 'teacher')!;
  return { username: teacher.username, password: teacher.password!, organisation: organisation.slug };
}

/** Registers an app with a callback through the pages; returns its client_id. */
async function registerApp(dev: DeveloperInBrowser, name = 'Reading Quest'): Promise<string> {
  const res = await dev.post('/developer/apps/new', { name, description: 'Books for year 3', homepage_url: 'https://quest.example', logo_url: '' });
  if (res.status !== 303) throw new Error(`register answered ${res.status}: ${await res.text()}`);
  const clientId = /\/developer\/apps\/(app_[0-9a-f]{32})$/.exec(res.headers.get('location')!)![1]!;
  const added = await dev.post(`/developer/apps/${clientId}/callbacks`, { redirect_uri: CALLBACK });
  if (added.status !== 303) throw new Error(`adding the callback answered ${added.status}`);
  return clientId;
}

/** Creates a secret through the pages and reads it from the one page that shows it. */
async function createSecret(dev: DeveloperInBrowser, clientId: string, label: string, expiresOn = ''): Promise<string> {
  const res = await dev.post(`/developer/apps/${clientId}/secrets`, { label, expires_on: expiresOn });
  if (res.status !== 303) throw new Error(`creating a secret answered ${res.status}: ${await res.text()}`);
  const page = await (await dev.get(`/developer/apps/${clientId}/credentials`)).text();
  return /<code id="new-secret" class="copy-value">([A-Za-z0-9_-]{43})<\/code>/.exec(page)![1]!;
}

/** A code for the app: the sandbox teacher signs in (a fresh browser). */
async function codeFor(lanyard: Lanyard, clientId: string, params: Record<string, string> = { scope: 'openid' }): Promise<URL> {
  const url = new URL('/oauth/authorize', lanyard.url);
  for (const [k, v] of Object.entries({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', state: 'st-1', ...params })) url.searchParams.set(k, v);
  return signIn(new HttpBrowser(), lanyard.url, url, await sandboxTeacher(lanyard));
}

async function tokenRequest(origin: string, auth: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${origin}/oauth/token`, {
    method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form),
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

const exchange = (origin: string, clientId: string, secret: string, code: URL) =>
  tokenRequest(origin, basic(clientId, secret), { grant_type: 'authorization_code', code: code.searchParams.get('code')!, redirect_uri: CALLBACK });

/** The whole flow with openid-client as the relying party, ID token checked: its claims. */
async function signInWithRelyingParty(lanyard: Lanyard, clientId: string, secret: string) {
  const rp = await relyingParty(lanyard.url, clientId, secret);
  const req = await authorizationRequest(rp, { redirect_uri: CALLBACK });
  const callback = await signIn(new HttpBrowser(), lanyard.url, req.url, await sandboxTeacher(lanyard));
  const tokens = await client.authorizationCodeGrant(rp, callback, { expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier });
  return tokens;
}

t.test('register: the form, its refusals, then the app in the list in development', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await developerIn(lanyard, 'Ada');
  const form = await ada.get('/developer/apps/new');
  t.equal(form.status, 200);
  t.equal(form.headers.get('cache-control'), 'no-store');
  t.match(await form.text(), /name="csrf"/);

  const refused = await ada.post('/developer/apps/new', { name: '', description: '', homepage_url: 'http://quest.example', logo_url: '' });
  t.equal(refused.status, 400, 'refused: 400, the form again');
  const refusedPage = await refused.text();
  t.match(refusedPage, /Give the app a name/);
  t.match(refusedPage, /must use https:\/\//);
  t.match(refusedPage, /value="http:\/\/quest.example"/, 'what was typed is kept');
  t.same(await ada.appsInStore(), [], 'nothing registered');

  const clientId = await registerApp(ada);
  const list = await (await ada.get('/developer')).text();
  t.match(list, new RegExp(`href="/developer/apps/${clientId}">Reading Quest</a>`));
  t.match(list, /status-development">In development</);
  t.match(await (await ada.get(`/developer/apps/${clientId}`)).text(), /<code id="client-id" class="copy-value">app_/);
  const stored = await lanyard.store.findClient(clientId);
  t.match(stored, { status: 'development', source: 'developer', ownerId: ada.id, defaultScopes: ['openid'], responseTypes: ['code'], redirectUris: [CALLBACK] });
});

t.test('callback URLs: each refusal says why; nothing is stored; removing works', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await developerIn(lanyard, 'Ada');
  const clientId = await registerApp(ada);
  const cases: [string, string, RegExp][] = [
    ['http on a host that is not loopback', 'http://app.example.com/callback', /must use https:\/\/. Plain http:\/\/ is allowed only on your own machine/],
    ['a fragment', 'https://app.example.com/callback#x', /cannot contain a fragment/],
    ['a wildcard', 'https://*.example.com/callback', /cannot contain a wildcard/],
    ['a relative URL', '/callback', /must be an absolute URL/],
    ['a duplicate', CALLBACK, /already registered/],
  ];
  const messages = new Set<string>();
  for (const [what, url, message] of cases) {
    const res = await ada.post(`/developer/apps/${clientId}/callbacks`, { redirect_uri: url });
    t.equal(res.status, 400, `${what}: 400`);
    const page = await res.text();
    const shown = /<p class="field-error" id="f-redirect_uri-error">([^<]+)<\/p>/.exec(page)?.[1];
    t.match(shown, message, `${what}: ${shown}`);
    messages.add(shown!);
    t.match(page, /aria-invalid="true"/, 'the field is marked invalid');
  }
  t.equal(messages.size, cases.length, 'a distinct message for each refusal');
  t.same((await lanyard.store.findClient(clientId))!.redirectUris, [CALLBACK], 'nothing stored');

  t.equal((await ada.post(`/developer/apps/${clientId}/callbacks`, { redirect_uri: 'https://app.example.com/cb?tenant=1' })).status, 303);
  t.equal((await ada.post(`/developer/apps/${clientId}/callbacks/remove`, { url: CALLBACK })).status, 303);
  t.same((await lanyard.store.findClient(clientId))!.redirectUris, ['https://app.example.com/cb?tenant=1'], 'stored exactly as given');
  const page = await (await ada.get(`/developer/apps/${clientId}/credentials`)).text();
  t.match(page, /Callback URL removed/, 'the flash after the 303');
});

t.test('an app with a secret but no callback URL yet: the token and revocation endpoints answer unauthorized_client (RFC 6749 §5.2)', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await developerIn(lanyard, 'Ada');
  const res = await ada.post('/developer/apps/new', { name: 'Half Done', description: 'No callback yet', homepage_url: 'https://half.example', logo_url: '' });
  t.equal(res.status, 303);
  const clientId = /\/developer\/apps\/(app_[0-9a-f]{32})$/.exec(res.headers.get('location')!)![1]!;
  const secret = await createSecret(ada, clientId, 'Early');
  const auth = basic(clientId, secret);
  const forms: Record<string, string>[] = [
    { grant_type: 'authorization_code', code: 'no-such-code', redirect_uri: CALLBACK },
    { grant_type: 'refresh_token', refresh_token: 'no-such-token' },
  ];
  for (const form of forms) {
    const answer = await tokenRequest(lanyard.url, auth, form);
    t.equal(answer.status, 400, `${form.grant_type}: 400`);
    t.equal(answer.body.error, 'unauthorized_client', `${form.grant_type}: unauthorized_client, one of RFC 6749's codes`);
    t.match(answer.body.error_description, /callback URL/, 'saying what is missing');
  }
  const revoke = await fetch(`${lanyard.url}/oauth/revoke`, {
    method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: 'x' }),
  });
  t.equal(revoke.status, 400, 'revocation: 400');
  t.equal(((await revoke.json()) as { error: string }).error, 'unauthorized_client', 'revocation: unauthorized_client');
  const wrong = await tokenRequest(lanyard.url, basic(clientId, 'not-the-secret'), { grant_type: 'refresh_token', refresh_token: 'x' });
  t.equal(wrong.status, 401, 'a wrong secret is still invalid_client');
  t.equal(wrong.body.error, 'invalid_client');
});

t.test('secrets: shown once; two work at once; a revoked one is refused at once on another instance', async (t) => {
  const { a, b } = await startPair(t, 'sqlite');
  const ada = await developerIn(a, 'Ada');
  const clientId = await registerApp(ada);

  const res = await ada.post(`/developer/apps/${clientId}/secrets`, { label: 'Production', expires_on: '' });
  t.equal(res.status, 303);
  const copied = ada.cookieHeader();
  const shown = await ada.get(`/developer/apps/${clientId}/credentials`);
  t.equal(shown.headers.get('cache-control'), 'no-store', 'the page with the secret is not cached');
  const page = await shown.text();
  const first = /<code id="new-secret" class="copy-value">([A-Za-z0-9_-]{43})<\/code>/.exec(page)?.[1];
  t.ok(first, 'the new secret is on the page after the 303');
  t.match(page, /data-copy="new-secret"/, 'with a copy button');
  const again = await (await ada.get(`/developer/apps/${clientId}/credentials`)).text();
  t.notOk(again.includes(first!), 'a second view does not show it');
  const replayed = await fetch(new URL(`/developer/apps/${clientId}/credentials`, a.url), { headers: { cookie: copied } });
  t.equal(replayed.status, 200, 'the page opens with a copy of the cookies from before it was shown');
  t.notOk((await replayed.text()).includes(first!), 'but the secret is not shown again: it was used up when shown');
  t.match(again, new RegExp(`…${first!.slice(-4).replace(/[-]/g, '\\-')}`), 'only its hint');
  t.notOk(JSON.stringify(await a.store.listClientSecrets(clientId)).includes(first!), 'the store holds only its hash');

  const second = await createSecret(ada, clientId, 'Rotation');
  t.not(second, first);
  for (const [name, secret] of [['first', first!], ['second', second]] as const) {
    const tokens = await signInWithRelyingParty(a, clientId, secret);
    t.equal(tokens.claims()!.aud, clientId, `the ${name} secret signs the sandbox teacher in, ID token verified`);
    t.equal(tokens.claims()!.given_name, 'Tamsin');
  }

  const firstId = (await a.store.listClientSecrets(clientId)).find((s) => s.label === 'Production')!.id;
  const confirm = await ada.get(`/developer/apps/${clientId}/secrets/${firstId}/revoke`);
  const confirmPage = await confirm.text();
  t.match(confirmPage, /Revoke the secret “Production”\?/, 'a confirmation first');
  t.same([...confirmPage.matchAll(/<dt>([^<]+)<\/dt>/g)].map((m) => m[1]), ['Ends with', 'Created', 'Last used', 'Expires'],
    'naming the secret by the same four facts as its card');
  t.ok(confirmPage.includes(`<code>…${first!.slice(-4)}</code>`), 'what it ends with');
  const code = await codeFor(a, clientId);
  t.equal((await ada.post(`/developer/apps/${clientId}/secrets/${firstId}/revoke`, {})).status, 303);
  const refused = await exchange(b.origin, clientId, first!, code);
  t.equal(refused.status, 401, 'the revoked secret: 401 on the other instance at once');
  t.equal(refused.body.error, 'invalid_client');
  const accepted = await exchange(b.origin, clientId, second, code);
  t.equal(accepted.status, 200, 'the same code with the other secret still works');
  t.ok(accepted.body.id_token);
  t.notOk(a.logs.join('').includes(first!) || a.logs.join('').includes(second), 'no secret in a log line');
});

t.test('an expired secret is refused (invalid_client); one without expiry still works', async (t) => {
  const clock = new ManualClock(new Date('2031-05-10T12:00:00Z'));
  const lanyard = await startLanyard(t, { clock });
  const ada = await developerIn(lanyard, 'Ada', clock);
  const clientId = await registerApp(ada);
  const past = await ada.post(`/developer/apps/${clientId}/secrets`, { label: 'Old', expires_on: '2031-05-09' });
  t.equal(past.status, 400, 'an expiry in the past is refused');
  t.match(await past.text(), /must be in the future/);
  const expiring = await createSecret(ada, clientId, 'Until tomorrow', '2031-05-11');
  const lasting = await createSecret(ada, clientId, 'No expiry');
  const tokens = await exchange(lanyard.url, clientId, expiring, await codeFor(lanyard, clientId));
  t.equal(tokens.status, 200, 'before its expiry the secret works');
  clock.advance(36 * 3600 * 1000); // 2031-05-12T00:00Z: past the end of 2031-05-11
  const refresh = { grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token) };
  const refused = await tokenRequest(lanyard.url, basic(clientId, expiring), refresh);
  t.equal(refused.status, 401);
  t.equal(refused.body.error, 'invalid_client', 'expired: invalid_client');
  t.equal((await tokenRequest(lanyard.url, basic(clientId, lasting), refresh)).status, 200, 'the other secret refreshes the same token');
});

t.test('default scopes: openid gives an id_token to a request without scope; none gives none', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await developerIn(lanyard, 'Ada');
  const clientId = await registerApp(ada);
  const secret = await createSecret(ada, clientId, 'Server');
  const page = await (await ada.get(`/developer/apps/${clientId}/scopes`)).text();
  t.match(page, /name="default_scopes" value="openid" checked/, 'openid is a default scope from the start');
  t.match(page, /launch your app from their dashboards/, 'the SPEC explanation of why openid matters');

  const withOpenid = await exchange(lanyard.url, clientId, secret, await codeFor(lanyard, clientId, {}));
  t.equal(withOpenid.status, 200);
  t.ok(withOpenid.body.id_token, 'no scope sent, openid by default: an id_token');

  t.equal((await ada.post(`/developer/apps/${clientId}/scopes`, {})).status, 303, 'every box unticked');
  t.same((await lanyard.store.findClient(clientId))!.defaultScopes, []);
  t.match(await (await ada.get(`/developer/apps/${clientId}/scopes`)).text(), /dashboard launches will not work/, 'a warning');
  const without = await codeFor(lanyard, clientId, {});
  t.equal(without.searchParams.get('code'), null, 'no code, so no id_token');
  t.equal(without.searchParams.get('error'), 'invalid_scope', 'a request without scope and no defaults is refused (RFC 6749 §3.3)');

  const unknown = await ada.post(`/developer/apps/${clientId}/scopes`, { default_scopes: 'profile' });
  t.equal(unknown.status, 400, 'a scope Lanyard does not offer is refused');
  t.match(await unknown.text(), /does not offer “profile”/);
});

t.test('logout URL: set, change and clear; /oauth/logout follows it at once', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await developerIn(lanyard, 'Ada');
  const clientId = await registerApp(ada);
  const logout = () => fetch(`${lanyard.url}/oauth/logout?client_id=${clientId}`, { redirect: 'manual' });
  t.equal((await logout()).status, 400, 'none yet: an error page');
  const bad = await ada.post(`/developer/apps/${clientId}/logout-url`, { logout_url: 'http://app.example.com/bye' });
  t.equal(bad.status, 400);
  t.match(await bad.text(), /A logout URL must use https:\/\//);
  for (const url of ['https://app.example.com/bye', 'http://localhost:8080/signed-out']) {
    t.equal((await ada.post(`/developer/apps/${clientId}/logout-url`, { logout_url: url })).status, 303);
    const res = await logout();
    if (url.startsWith('https:')) {
      // In development, only a loopback logout_url is redirected to at once (development-apps.test.ts).
      t.equal(res.status, 200);
      t.match(await res.text(), `href="${url}"`, `/oauth/logout links to ${url}`);
    } else {
      t.equal(res.status, 303);
      t.equal(res.headers.get('location'), url, `/oauth/logout sends the browser to ${url}`);
    }
  }
  t.equal((await ada.post(`/developer/apps/${clientId}/logout-url/clear`, {})).status, 303);
  t.equal((await logout()).status, 400, 'cleared');
});

t.test('initiate login URI (dashboard launch): explained; each refusal says why; set, shown, changed and cleared; in the history', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await developerIn(lanyard, 'Ada');
  const clientId = await registerApp(ada);
  const path = `/developer/apps/${clientId}/initiate-login-uri`;
  const stored = async () => (await lanyard.store.findClient(clientId))?.initiateLoginUri;

  const empty = await ada.get(path);
  t.equal(empty.status, 200);
  const emptyPage = await empty.text();
  t.match(emptyPage, /<a href="\/developer\/apps\/app_[0-9a-f]{32}\/initiate-login-uri" aria-current="page">Dashboard launch<\/a>/, 'its own tab, marked as the current one');
  t.match(emptyPage, 'Optional. When a user opens your app from their Lanyard dashboard, Lanyard sends the browser here with iss, login_hint and target_link_uri; '
    + 'start a normal sign-in (authorization request) from it. Without it, the launch brings an authorization code to your first callback URL, '
    + 'with your default scopes (no state, no nonce).', 'what it is for, and what happens without it');
  t.match(emptyPage, /No initiate login URI is set/);
  t.match(emptyPage, /<label for="f-initiate_login_uri">Set an initiate login URI<\/label>/, 'a labelled field');
  t.match(emptyPage, /<input id="f-initiate_login_uri" name="initiate_login_uri" type="url" value="" autocomplete="off" maxlength="2000" aria-describedby="f-initiate_login_uri-hint"/);
  t.notMatch(emptyPage, /Clear the initiate login URI/, 'nothing to clear');
  t.match(await (await ada.get(`/developer/apps/${clientId}`)).text(), /No initiate login URI: dashboard launches bring a code to your first callback URL/, 'the overview says so');

  const refusals: [string, RegExp][] = [
    ['launch.example.com/start', /An initiate login URI must be an absolute URL, starting with https:\/\//],
    ['ftp://app.example.com/launch', /An initiate login URI must start with https:\/\/ \(or http:\/\/ for 127\.0\.0\.1, \[::1\] or localhost\); ftp: URLs are not accepted/],
    ['http://app.example.com/launch', /An initiate login URI must use https:\/\/\. Plain http:\/\/ is allowed only on your own machine/],
    ['https://app.example.com/launch#start', /An initiate login URI cannot contain a fragment \(the part from #\): a launch sends iss, login_hint and target_link_uri in the query/],
    ['https://ada:secret@app.example.com/launch', /An initiate login URI cannot contain a user name or password/],
    ['https://*.app.example.com/launch', /An initiate login URI cannot contain a wildcard/],
    [`https://app.example.com/${'a'.repeat(2000)}`, /An initiate login URI can be at most 2000 characters long/],
  ];
  for (const [value, message] of refusals) {
    const res = await ada.post(path, { initiate_login_uri: value });
    t.equal(res.status, 400, `${value.slice(0, 40)}: refused`);
    const page = await res.text();
    t.match(page, new RegExp(`<p class="field-error" id="f-initiate_login_uri-error">${message.source}`), `${value.slice(0, 40)}: its message, under the field`);
    t.match(page, /aria-invalid="true"/, 'the field is marked invalid');
    t.ok(page.includes(`value="${value}"`), 'what was typed is shown again');
  }
  t.equal(await stored(), undefined, 'nothing stored by a refusal');

  const set = await ada.post(path, { initiate_login_uri: ' https://app.example.com/launch ' });
  t.equal(set.status, 303);
  t.equal(set.headers.get('location'), path);
  t.equal(await stored(), 'https://app.example.com/launch', 'stored, trimmed');
  const setPage = await (await ada.get(path)).text();
  t.equal(flashOf(setPage), 'Initiate login URI saved. Dashboard launches now start at it.');
  t.match(setPage.replace(/<wbr>|<\/?span>/g, ''), /Now: <code class="breakable">https:\/\/app\.example\.com\/launch<\/code>/, 'shown back (breaking only after a slash)');
  t.match(setPage, /<label for="f-initiate_login_uri">Change the initiate login URI<\/label>/);
  t.match(setPage, /value="https:\/\/app\.example\.com\/launch"/);
  t.match(setPage, /Clear the initiate login URI/);
  t.match(await (await ada.get(`/developer/apps/${clientId}`)).text(), /Initiate login URI set — <a href="[^"]+\/initiate-login-uri">Dashboard launch<\/a>/, 'the overview says so');

  t.equal((await ada.post(path, { initiate_login_uri: 'http://localhost:8080/launch?from=lanyard' })).status, 303, 'http on loopback');
  t.equal(await stored(), 'http://localhost:8080/launch?from=lanyard', 'changed');
  t.equal((await ada.post(`${path}/clear`, {})).status, 303);
  t.equal(await stored(), undefined, 'cleared');
  const clearedPage = await (await ada.get(path)).text();
  t.equal(flashOf(clearedPage), 'Initiate login URI cleared. Dashboard launches now bring a code to your first callback URL.');
  t.match(clearedPage, /No initiate login URI is set/);
  t.equal((await ada.post(path, { initiate_login_uri: 'https://app.example.com/again' })).status, 303);
  t.equal((await ada.post(path, { initiate_login_uri: '' })).status, 303, 'an empty field clears it too');
  t.equal(await stored(), undefined);

  const history = await (await ada.get(`/developer/apps/${clientId}/history`)).text();
  // A URL breaks only after a slash (slashed(): its parts in <span>s, a <wbr> between them), read here as shown.
  const shown = history.replace(/<wbr>|<\/?span>/g, '');
  t.match(shown, /Set the initiate login URI<\/strong>: <code class="breakable">https:\/\/app\.example\.com\/launch<\/code><\/p>\s*<p class="history-meta">Ada · <time datetime="/, 'set: what, who and when');
  t.match(shown, /Set the initiate login URI<\/strong>: <code class="breakable">http:\/\/localhost:8080\/launch\?from=lanyard<\/code>/, 'changed');
  t.match(history, /Cleared the initiate login URI<\/strong><\/p>\s*<p class="history-meta">Ada · <time/, 'cleared');
  const events = (await lanyard.store.listDeveloperEvents(`app:${clientId}`, 100)).filter((e) => e.action.startsWith('initiate_login_uri.'));
  t.same(events.map((e) => [e.action, e.actorId, e.detail]), [
    ['initiate_login_uri.cleared', ada.id, {}],
    ['initiate_login_uri.set', ada.id, { url: 'https://app.example.com/again' }],
    ['initiate_login_uri.cleared', ada.id, {}],
    ['initiate_login_uri.set', ada.id, { url: 'http://localhost:8080/launch?from=lanyard' }],
    ['initiate_login_uri.set', ada.id, { url: 'https://app.example.com/launch' }],
  ], 'each change recorded once, none for a refusal');
});

t.test('delete: owner confirms by name; the app\'s tokens are revoked', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await developerIn(lanyard, 'Ada');
  const clientId = await registerApp(ada);
  const secret = await createSecret(ada, clientId, 'Server');
  const tokens = await exchange(lanyard.url, clientId, secret, await codeFor(lanyard, clientId));
  t.equal(tokens.status, 200);
  const userinfo = (token: unknown) => fetch(`${lanyard.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${String(token)}` } });
  t.equal((await userinfo(tokens.body.access_token)).status, 200, 'the access token works before');
  t.ok(await lanyard.store.oidc.find('RefreshToken', storedId('RefreshToken', String(tokens.body.refresh_token))), 'its refresh token is in the store');

  const wrong = await ada.post(`/developer/apps/${clientId}/delete`, { confirm_name: 'reading quest' });
  t.equal(wrong.status, 400, 'the name must be typed exactly');
  t.ok(await lanyard.store.findClient(clientId), 'nothing deleted');
  const res = await ada.post(`/developer/apps/${clientId}/delete`, { confirm_name: 'Reading Quest' });
  t.equal(res.status, 303);
  t.equal(res.headers.get('location'), '/developer');
  t.match(await (await ada.get('/developer')).text(), /“Reading Quest” is deleted/);

  t.equal(await lanyard.store.findClient(clientId), undefined);
  t.equal(await lanyard.store.oidc.find('RefreshToken', storedId('RefreshToken', String(tokens.body.refresh_token))), undefined, 'its refresh token is gone from the store');
  const refresh = { grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token) };
  const byApp = await tokenRequest(lanyard.url, basic(clientId, secret), refresh);
  t.equal(byApp.status, 401);
  t.equal(byApp.body.error, 'invalid_client', 'the app and its secrets are gone');
  const byOther = await tokenRequest(lanyard.url, basic('demo-app', 'demo-app-secret'), refresh);
  t.equal(byOther.body.error, 'invalid_grant', 'the refresh token itself is revoked');
  t.equal((await userinfo(tokens.body.access_token)).status, 401, 'the access token no longer reads userinfo');
  t.equal((await ada.get(`/developer/apps/${clientId}`)).status, 404);
});

t.test('history: who did what, when; never a secret', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await developerIn(lanyard, 'Ada');
  const clientId = await registerApp(ada);
  const secret = await createSecret(ada, clientId, 'Production');
  const id = (await lanyard.store.listClientSecrets(clientId))[0]!.id;
  await ada.post(`/developer/apps/${clientId}/secrets/${id}/revoke`, {});
  await ada.post(`/developer/apps/${clientId}/scopes`, { default_scopes: 'openid' });
  const res = await ada.get(`/developer/apps/${clientId}/history`);
  t.equal(res.status, 200);
  const page = await res.text();
  for (const what of ['Registered the app', 'Added a callback URL', 'Created a secret', 'Revoked a secret']) t.match(page, what);
  t.match(page, /<p class="history-meta">Ada · <time/, 'who');
  t.match(page, /<time datetime="\d{4}-\d{2}-\d{2}T/, 'when');
  t.match(page, /Created a secret<\/strong>: “Production” \(ends with <code>…/, 'the secret by label and hint');
  t.notOk(page.includes(secret), 'never the secret');
  const hash = (await lanyard.store.listDeveloperEvents(`app:${clientId}`, 100)).map((e) => JSON.stringify(e)).join();
  t.notOk(hash.includes(secret), 'not in the stored history either');
});

t.test('authorisation: another developer gets 404 everywhere; team members; CSRF', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await developerIn(lanyard, 'Ada');
  const bob = await developerIn(lanyard, 'Bob');
  const eve = await developerIn(lanyard, 'Eve');
  const clientId = await registerApp(ada);
  await createSecret(ada, clientId, 'Server');
  const secretId = (await lanyard.store.listClientSecrets(clientId))[0]!.id;
  const app = `/developer/apps/${clientId}`;
  const pages = ['', '/credentials', '/scopes', '/initiate-login-uri', '/logout-url', '/team', '/history', '/go-live', '/delete', `/secrets/${secretId}/revoke`];
  const posts: [string, Record<string, string>][] = [
    ['/details', { name: 'Mine now' }], ['/callbacks', { redirect_uri: 'https://evil.example/cb' }], ['/callbacks/remove', { url: CALLBACK }],
    ['/secrets', { label: 'evil' }], [`/secrets/${secretId}/revoke`, {}], ['/scopes', {}], ['/logout-url', { logout_url: 'https://evil.example' }],
    ['/logout-url/clear', {}], ['/initiate-login-uri', { initiate_login_uri: 'https://evil.example/launch' }], ['/initiate-login-uri/clear', {}],
    ['/team', { email: eve.email }], ['/team/remove', { developer_id: ada.id }], ['/go-live', {}],
    ['/delete', { confirm_name: 'Reading Quest' }],
  ];
  const before = JSON.stringify([await lanyard.store.findClient(clientId), await lanyard.store.listClientSecrets(clientId), await lanyard.store.listTeam(clientId)]);
  for (const p of pages) t.equal((await eve.get(`${app}${p}`)).status, 404, `GET ${p || '/'}: 404 for another developer`);
  const theirs = await (await eve.get(app)).text();
  const none = await (await eve.get('/developer/apps/app_00000000000000000000000000000000')).text();
  t.match(theirs, /There is no such app, or you are not in its team/);
  t.equal(theirs.replace(/app_[0-9a-f]{32}/g, ''), none.replace(/app_[0-9a-f]{32}/g, ''), 'the same page as for an app that does not exist');
  for (const [p, form] of posts) t.equal((await eve.post(`${app}${p}`, form)).status, 404, `POST ${p}: 404 for another developer`);
  t.notMatch(await (await eve.get('/developer')).text(), /Reading Quest/, 'not in their list');
  const after = JSON.stringify([await lanyard.store.findClient(clientId), await lanyard.store.listClientSecrets(clientId), await lanyard.store.listTeam(clientId)]);
  t.equal(after, before, 'nothing changed');

  // CSRF: missing or wrong → 403, nothing changed.
  for (const [p, form] of posts) {
    t.equal((await ada.postWithoutCsrf(`${app}${p}`, form)).status, 403, `POST ${p} without csrf: 403`);
    t.equal((await ada.postWithoutCsrf(`${app}${p}`, { ...form, csrf: eve.csrf })).status, 403, `POST ${p} with another session's csrf: 403`);
  }
  t.equal((await ada.postWithoutCsrf('/developer/apps/new', { name: 'Forged' })).status, 403);
  const unchanged = JSON.stringify([await lanyard.store.findClient(clientId), await lanyard.store.listClientSecrets(clientId), await lanyard.store.listTeam(clientId)]);
  t.equal(unchanged, before, 'nothing changed by forged posts');
  t.same((await ada.appsInStore()).length, 1, 'no app registered by a forged post');

  // Adding someone is an invitation: until they accept it they reach nothing (with open sign-up, whoever signed
  // up first with an address would otherwise join the app the moment its owner typed that address).
  const invited = await ada.post(`${app}/team`, { email: bob.email.toUpperCase() });
  t.equal(invited.status, 303);
  t.equal(invited.headers.get('location'), `${app}/team`);
  const invitedPage = await (await ada.get(`${app}/team`)).text();
  t.equal(flashOf(invitedPage), `Invitation recorded for ${bob.email}. Send them the link below: they join the team through it.`);
  t.match(invitedPage, `<span class="breakable"><span>${bob.email.split('@')[0]}@</span><wbr>`, 'the address in it breaks after its @, never at its hyphen');
  t.match(invitedPage, /Invited, not yet accepted/, 'the owner sees the invitation in the team');
  t.match(invitedPage, `Withdraw the invitation<span class="visually-hidden"> to ${bob.email}`);
  t.notMatch(invitedPage, />Bob</, 'an invitation by the address typed, not the account’s name (that would say an account exists)');
  t.same((await lanyard.store.listTeam(clientId)).map((m) => [m.developerId, m.role]), [[ada.id, 'owner'], [`address:${bob.email}`, 'invited']], 'held by the address');
  t.notMatch(invitedPage, bob.id, 'the page holds no account id for it');
  const withInvitation = JSON.stringify([await lanyard.store.findClient(clientId), await lanyard.store.listClientSecrets(clientId), await lanyard.store.listTeam(clientId)]);
  for (const p of pages) t.equal((await bob.get(`${app}${p}`)).status, 404, `invited, not accepted: GET ${p || '/'} is 404`);
  t.equal((await bob.get(app)).status, 404);
  const bobsNone = await (await bob.get('/developer/apps/app_00000000000000000000000000000000')).text();
  t.equal((await (await bob.get(app)).text()).replace(/app_[0-9a-f]{32}/g, ''), bobsNone.replace(/app_[0-9a-f]{32}/g, ''), 'the page of an app that does not exist');
  for (const [p, form] of posts) t.equal((await bob.post(`${app}${p}`, form)).status, 404, `invited, not accepted: POST ${p} is 404`);
  t.equal(JSON.stringify([await lanyard.store.findClient(clientId), await lanyard.store.listClientSecrets(clientId), await lanyard.store.listTeam(clientId)]),
    withInvitation, 'no callback, no secret, nothing changed by the invited developer');
  const bobsList = await (await bob.get('/developer')).text();
  t.notMatch(bobsList, new RegExp(`href="${app}"`), 'not in their apps');
  t.match(bobsList, /Invitations to a team/, 'but their invitation is');
  t.match(bobsList, /Reading Quest/);
  t.match(bobsList, /Invited by Ada/);
  t.match(bobsList, new RegExp(`action="/developer/invitations/${clientId}/accept"`));

  // An address without an account: the same answer, and listed the same way.
  const stranger = await ada.post(`${app}/team`, { email: 'nobody-here@example.com' });
  t.equal(stranger.status, invited.status, 'the same status');
  t.equal(stranger.headers.get('location'), invited.headers.get('location'), 'the same next page');
  t.equal(flashOf(await (await ada.get(`${app}/team`)).text()), 'Invitation recorded for nobody-here@example.com. Send them the link below: they join the team through it.', 'the same message');
  t.same((await lanyard.store.listTeam(clientId)).map((m) => [m.developerId, m.role]).slice(2), [['address:nobody-here@example.com', 'invited']], 'kept as an invitation to the address');
  const teamPage = await (await ada.get(`${app}/team`)).text();
  t.notMatch(teamPage, /No developer account/, 'never says whether an account exists');
  t.match(teamPage, 'Withdraw the invitation<span class="visually-hidden"> to nobody-here@example.com', 'listed like the invitation to an account');

  // Answering: CSRF as everywhere; decline removes it; withdrawn by the owner, it cannot be accepted.
  for (const answer of ['accept', 'decline']) {
    t.equal((await bob.postWithoutCsrf(`/developer/invitations/${clientId}/${answer}`, {})).status, 403, `${answer} without csrf: 403`);
  }
  const declined = await bob.post(`/developer/invitations/${clientId}/decline`, {});
  t.equal(declined.status, 303);
  t.equal(declined.headers.get('location'), '/developer');
  t.match(await (await bob.get('/developer')).text(), /You declined the invitation to the team of “Reading Quest”/);
  t.same((await lanyard.store.listTeam(clientId)).map((m) => m.developerId), [ada.id, 'address:nobody-here@example.com'], 'declined: gone');
  t.equal((await bob.post(`/developer/invitations/${clientId}/decline`, {})).status, 404, 'no invitation to decline any more');
  t.equal((await bob.post(`/developer/invitations/${clientId}/accept`, {})).status, 404, 'nor to accept');
  t.equal((await ada.post(`${app}/team`, { email: bob.email })).status, 303, 'invited again');
  t.equal((await ada.post(`${app}/team/remove`, { developer_id: `address:${bob.email}` })).status, 303, 'the owner withdraws it');
  t.equal(flashOf(await (await ada.get(`${app}/team`)).text()), `The invitation to ${bob.email} is withdrawn.`);
  t.equal((await bob.post(`/developer/invitations/${clientId}/accept`, {})).status, 404, 'withdrawn: nothing to accept');
  t.equal((await bob.get(app)).status, 404);
  t.notMatch(await (await bob.get('/developer')).text(), /Reading Quest/, 'and no invitation listed');

  // Accepted: a team member, who may change settings, may not manage the team or delete; loses access at once when removed.
  t.equal((await ada.post(`${app}/team`, { email: bob.email })).status, 303);
  const accepted = await bob.post(`/developer/invitations/${clientId}/accept`, {});
  t.equal(accepted.status, 303);
  t.equal(accepted.headers.get('location'), app, 'straight to the app');
  const joined = await bob.get(app);
  t.equal(joined.status, 200, 'a member sees the app');
  t.match(await joined.text(), /You joined the team of “Reading Quest”/);
  t.match(await (await bob.get('/developer')).text(), /Reading Quest/);
  t.equal((await bob.post(`${app}/callbacks`, { redirect_uri: 'https://bob.example/cb' })).status, 303, 'a member changes settings');
  t.equal((await bob.get(`${app}/delete`)).status, 403, 'a member cannot open the delete page');
  t.equal((await bob.post(`${app}/delete`, { confirm_name: 'Reading Quest' })).status, 403, 'nor delete');
  t.equal((await bob.post(`${app}/team`, { email: eve.email })).status, 403, 'nor add people');
  t.equal((await bob.post(`${app}/team/remove`, { developer_id: ada.id })).status, 403, 'nor remove the owner');
  t.notMatch(await (await bob.get(`${app}/team`)).text(), /name="email"/, 'no add form for a member');
  t.ok(await lanyard.store.findClient(clientId), 'still there');
  const lastOwner = await ada.post(`${app}/team/remove`, { developer_id: ada.id });
  t.equal(lastOwner.status, 409, 'the last owner cannot leave');
  t.match(await lastOwner.text(), /last owner/);
  t.equal((await ada.post(`${app}/team/remove`, { developer_id: bob.id })).status, 303);
  t.equal((await bob.get(app)).status, 404, 'removed: 404 at once');
  t.equal((await bob.post(`${app}/callbacks`, { redirect_uri: 'https://bob.example/again' })).status, 404, 'and cannot change anything');
  const history = await (await ada.get(`${app}/history`)).text();
  for (const line of ['Invited to the team', 'Declined the invitation to the team', 'Withdrew an invitation to the team',
    'Accepted the invitation to the team', 'Removed from the team']) t.match(history, line);
  t.match(history.replace(/<wbr>|<span>/g, ''), /Invited to the team<\/strong>: <span class="breakable">nobody-here@<\/span>example.<\/span>com<\/span>/, 'the address the owner typed, either way (breaking only after its @ or a dot)');
});

t.test('going live: needs a callback; pending; declined with a note; approved', async (t) => {
  const lanyard = await startLanyard(t);
  const ada = await developerIn(lanyard, 'Ada');
  const reg = await ada.post('/developer/apps/new', { name: 'Bare', description: '', homepage_url: '', logo_url: '' });
  const bare = /app_[0-9a-f]{32}/.exec(reg.headers.get('location')!)![0];
  const early = await ada.post(`/developer/apps/${bare}/go-live`, {});
  t.equal(early.status, 409, 'no callback URL yet: refused');
  t.match(await early.text(), /at least one callback URL/);

  const clientId = await registerApp(ada);
  t.equal((await ada.post(`/developer/apps/${clientId}/go-live`, {})).status, 303);
  t.equal((await lanyard.store.findClient(clientId))!.status, 'pending');
  t.match(await (await ada.get(`/developer/apps/${clientId}/go-live`)).text(), /Waiting for review/);
  t.equal((await ada.post(`/developer/apps/${clientId}/go-live`, {})).status, 409, 'asked twice: 409');

  const apps = new AppService({ store: lanyard.store, clock: { now: () => new Date() }, log: lanyard.app.log });
  await apps.decline(OPERATOR, clientId, 'Please add a privacy policy to your homepage.');
  const declined = await (await ada.get(`/developer/apps/${clientId}/go-live`)).text();
  t.match(declined, /Please add a privacy policy to your homepage\./, 'the note is shown');
  t.match(declined, /In development/);
  t.equal((await ada.post(`/developer/apps/${clientId}/go-live`, {})).status, 303, 'asked again');
  t.equal((await lanyard.store.findClient(clientId))!.reviewNote, undefined, 'the old note is cleared');
  await apps.approve(OPERATOR, clientId);
  const kept = await ada.get(`/developer/apps/${clientId}`);
  t.equal(kept.status, 403, 'live: its team works on it only with two-step sign-in');
  t.match(await kept.text(), /This app is live: turn on two-step sign-in/);
  await enableDeveloperTotp(lanyard, ada.browser);
  t.match(await (await ada.get(`/developer/apps/${clientId}`)).text(), /status-live">Live</);
  const history = await (await ada.get(`/developer/apps/${clientId}/history`)).text();
  t.match(history, /Lanyard’s operator · /, 'the operator in the history');
  t.match(history, /Approved the app/);
});
