import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import t from 'tap';
import * as client from 'openid-client';
import { SignJWT, type JWTPayload } from 'jose';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { authorizationRequest, relyingParty } from '../helpers/relying-party.js';
import { writeConfig } from '../helpers/config-file.js';
import { storedId } from '../../adapters/record-ids.js';

/**
 * OpenID Connect RP-Initiated Logout 1.0 at discovery's end_session_endpoint (GET /oauth/logout), beside the
 * SPEC's `?client_id=` form (test/integration/logout.test.ts): id_token_hint, post_logout_redirect_uri, state,
 * by GET and by POST.
 */

const DEMO_LOGOUT = 'http://localhost:8080/signed-out';
const QUERY_LOGOUT = 'http://localhost:9090/bye?from=lanyard';

const config = writeConfig((c) => {
  c.clients.push({
    client_id: 'query-app',
    name: 'Query App',
    secrets: ['query-app-secret'],
    redirect_uris: ['http://localhost:9090/cb'],
    logout_url: QUERY_LOGOUT,
  });
  c.clients.push({ client_id: 'no-logout', name: 'No Logout', secrets: ['no-logout-secret'], redirect_uris: ['http://localhost:9091/cb'] });
});
const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
const issuer = lanyard.url;
const rp = await relyingParty(issuer);
const endpoint = `${issuer}/oauth/logout`;

/** A user signed in through openid-client in a fresh browser: the browser, its session id, the ID token. */
async function signedIn() {
  const browser = new HttpBrowser();
  const req = await authorizationRequest(rp);
  const callback = await signIn(browser, issuer, req.url, TEACHER);
  const tokens = await client.authorizationCodeGrant(rp, callback, {
    expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier,
  });
  const sessionId = browser.cookies.get('_session');
  if (!sessionId || !tokens.id_token) throw new Error('expected a session and an ID token');
  return { browser, sessionId, idToken: tokens.id_token };
}

/** A JWT signed with `key` (Lanyard's current signing key unless given): what Lanyard cannot mint on demand. */
async function signed(claims: JWTPayload, key?: { privateKey: KeyObject; kid: string }) {
  let k = key;
  if (!k) {
    const { signing } = await lanyard.keyManager.current();
    k = { privateKey: signing.privateKey, kid: signing.kid };
  }
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: 'u1', iat: now - 60, exp: now + 3600, ...claims })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: k.kid })
    .sign(k.privateKey);
}

const get = (url: string | URL) => fetch(url, { redirect: 'manual' });
const logoutUrl = (params: Record<string, string> | [string, string][]) => `${endpoint}?${new URLSearchParams(params)}`;
const logEvents = () => lanyard.logs.filter((l) => l.includes('"event":"logout"')).map((l) => JSON.parse(l) as Record<string, unknown>);
const sessionStored = async (id: string) => Boolean(await lanyard.store.oidc.find('Session', storedId('Session', id)));

t.test('discovery names the logout endpoint; openid-client builds the logout URL from it', async (t) => {
  t.equal(rp.serverMetadata().end_session_endpoint, endpoint);
  const built = client.buildEndSessionUrl(rp, { id_token_hint: 'x' });
  t.equal(`${built.origin}${built.pathname}`, endpoint);
});

t.test('id_token_hint (with client_id, as openid-client sends it): signed out, straight to logout_url', async (t) => {
  const { browser, sessionId, idToken } = await signedIn();
  t.ok(await sessionStored(sessionId), 'signed in');
  const url = client.buildEndSessionUrl(rp, { id_token_hint: idToken });
  t.equal(url.searchParams.get('client_id'), 'demo-app', 'openid-client adds client_id');
  const before = logEvents().length;

  const res = await browser.get(url);
  t.equal(res.status, 303);
  t.equal(res.headers.get('location'), DEMO_LOGOUT, 'exactly the registered logout_url');
  t.notOk(browser.cookies.has('_session'), 'cookie cleared');
  t.notOk(await sessionStored(sessionId), 'stored session destroyed');
  const event = logEvents().slice(before)[0];
  t.match(event, { clientId: 'demo-app', identifiedBy: 'client_id+id_token_hint' });
  t.notOk(lanyard.logs.some((l) => l.includes(idToken)), 'the ID token is never logged');
});

t.test('id_token_hint alone names the app', async (t) => {
  const { browser, sessionId, idToken } = await signedIn();
  const url = client.buildEndSessionUrl(rp, { id_token_hint: idToken });
  url.searchParams.delete('client_id');
  const before = logEvents().length;

  const res = await browser.get(url);
  t.equal(res.status, 303);
  t.equal(res.headers.get('location'), DEMO_LOGOUT);
  t.notOk(await sessionStored(sessionId), 'stored session destroyed');
  t.match(logEvents().slice(before)[0], { clientId: 'demo-app', identifiedBy: 'id_token_hint' });
  const again = await browser.get((await authorizationRequest(rp)).url);
  t.match(again.headers.get('location'), /\/interaction\//, 'the user must sign in again');
});

t.test('an expired ID token is accepted as a hint (RP-Initiated Logout §2)', async (t) => {
  const now = Math.floor(Date.now() / 1000);
  const expired = await signed({ iss: issuer, aud: 'demo-app', iat: now - 7200, exp: now - 3600 });
  const res = await get(logoutUrl({ id_token_hint: expired, state: 's-1' }));
  t.equal(res.status, 303);
  t.equal(res.headers.get('location'), `${DEMO_LOGOUT}?state=s-1`);
  // aud as a one-element array, and several audiences with azp naming the app, are read the same way.
  for (const aud of [{ aud: ['demo-app'] }, { aud: ['query-app', 'other'], azp: 'query-app' }] as { aud: string[]; azp?: string }[]) {
    const r = await get(logoutUrl({ id_token_hint: await signed({ iss: issuer, ...aud }) }));
    t.equal(r.status, 303, JSON.stringify(aud));
    t.equal(r.headers.get('location'), aud.azp ? QUERY_LOGOUT : DEMO_LOGOUT);
  }
});

t.test('post_logout_redirect_uri: only the registered logout_url is honoured; others are ignored', async (t) => {
  const hint = await signed({ iss: issuer, aud: 'demo-app' });
  let before = logEvents().length;
  const foreign = await get(logoutUrl({ id_token_hint: hint, post_logout_redirect_uri: 'https://evil.example/phish', state: 'abc' }));
  t.equal(foreign.status, 303);
  t.equal(foreign.headers.get('location'), `${DEMO_LOGOUT}?state=abc`, 'never the unregistered address');
  t.match(logEvents().slice(before)[0], { clientId: 'demo-app', postLogoutRedirectUri: 'ignored' });

  before = logEvents().length;
  const registered = await get(logoutUrl({ id_token_hint: hint, post_logout_redirect_uri: DEMO_LOGOUT, state: 'abc' }));
  t.equal(registered.status, 303);
  t.equal(registered.headers.get('location'), `${DEMO_LOGOUT}?state=abc`);
  t.match(logEvents().slice(before)[0], { clientId: 'demo-app', postLogoutRedirectUri: 'honoured' });
});

t.test('state comes back on the redirect, after a query the logout_url already has', async (t) => {
  const plain = await get(logoutUrl({ client_id: 'demo-app', state: 'xyz' }));
  t.equal(plain.headers.get('location'), `${DEMO_LOGOUT}?state=xyz`);

  const state = 'a b&c=d/é';
  const res = await get(logoutUrl({ client_id: 'query-app', state }));
  t.equal(res.status, 303);
  const to = res.headers.get('location')!;
  t.ok(to.startsWith(`${QUERY_LOGOUT}&state=`), `the registered query is kept as it is: ${to}`);
  const url = new URL(to);
  t.same([...url.searchParams], [['from', 'lanyard'], ['state', state]], 'state round-trips exactly');

  const without = await get(logoutUrl({ client_id: 'query-app' }));
  t.equal(without.headers.get('location'), QUERY_LOGOUT, 'without state: exactly the registered logout_url');
});

t.test('refused with the error page, never a redirect, and the session survives', async (t) => {
  const { browser, sessionId, idToken } = await signedIn();
  const [head, body, sig] = idToken.split('.') as [string, string, string];
  const flipped = Buffer.from(sig, 'base64url');
  flipped[10] = flipped[10]! ^ 0xff;
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as JWTPayload;
  const otherAud = Buffer.from(JSON.stringify({ ...claims, aud: 'query-app' })).toString('base64url');
  const { privateKey: foreignKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const lanyardKid = (await lanyard.keyManager.current()).signing.kid;
  const elsewhere = 'https://other-idp.example';
  const hint = (token: string): [string, string][] => [['id_token_hint', token]];
  const demo: [string, string] = ['client_id', 'demo-app'];

  const cases: [string, [string, string][], RegExp][] = [
    ['tampered signature', hint(`${head}.${body}.${flipped.toString('base64url')}`), /signature is not valid/],
    ['tampered claims', hint(`${head}.${otherAud}.${sig}`), /signature is not valid/],
    ['another issuer\'s token (its own key)',
      hint(await signed({ iss: elsewhere, aud: 'demo-app' }, { privateKey: foreignKey, kid: 'other-kid' })), /unknown kid/],
    ['a forged token with Lanyard\'s kid',
      hint(await signed({ iss: issuer, aud: 'demo-app' }, { privateKey: foreignKey, kid: lanyardKid })), /signature is not valid/],
    ['Lanyard\'s key, another iss', hint(await signed({ iss: elsewhere, aud: 'demo-app' })), /another server/],
    ['unsigned (alg none)', hint(`${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${body}.`), /not signed with RS256/],
    ['malformed', hint('not-a-jwt'), /cannot be read/],
    ['too long', hint('a'.repeat(4097)), /id_token_hint is too long/],
    ['client_id not the hint\'s audience', [['client_id', 'query-app'], ...hint(idToken)], /not the app the id_token_hint was issued to/],
    ['hint for an unknown client', hint(await signed({ iss: issuer, aud: 'ghost-app' })), /not registered/],
    ['several audiences, no azp', hint(await signed({ iss: issuer, aud: ['demo-app', 'query-app'] })), /one app/],
    ['hint for an app without logout_url', hint(await signed({ iss: issuer, aud: 'no-logout' })), /no sign-out address/],
    ['duplicated state', [demo, ['state', 'a'], ['state', 'b']], /state more than once/],
    ['duplicated id_token_hint', [...hint(idToken), ...hint(idToken)], /id_token_hint more than once/],
    ['duplicated post_logout_redirect_uri',
      [demo, ['post_logout_redirect_uri', DEMO_LOGOUT], ['post_logout_redirect_uri', DEMO_LOGOUT]], /more than once/],
    ['state too long', [demo, ['state', 's'.repeat(2049)]], /state is too long/],
  ];
  for (const [name, params, text] of cases) {
    const res = await browser.get(logoutUrl(params));
    t.equal(res.status, 400, `${name}: 400`);
    t.equal(res.headers.get('location'), null, `${name}: no redirect`);
    t.match(res.headers.get('content-type'), /text\/html/);
    t.match(await res.text(), text, `${name}: says why`);
  }
  t.ok(browser.cookies.has('_session') && await sessionStored(sessionId), 'still signed in after every refusal');
});

t.test('POST with a form works like GET', async (t) => {
  const { browser, sessionId, idToken } = await signedIn();
  const res = await browser.post(endpoint, { id_token_hint: idToken, state: 'posted', post_logout_redirect_uri: 'https://evil.example/' });
  t.equal(res.status, 303);
  t.equal(res.headers.get('location'), `${DEMO_LOGOUT}?state=posted`);
  t.notOk(browser.cookies.has('_session'), 'cookie cleared');
  t.notOk(await sessionStored(sessionId), 'stored session destroyed');

  const refused = await browser.post(endpoint, { id_token_hint: `${idToken}x` });
  t.equal(refused.status, 400);
  t.equal(refused.headers.get('location'), null);
  t.match(await refused.text(), /signature is not valid/);

  const duplicated = await fetch(endpoint, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'client_id=demo-app&state=a&state=b',
  });
  t.equal(duplicated.status, 400);
  t.match(await duplicated.text(), /state more than once/);

  const json = await fetch(endpoint, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'demo-app' }),
  });
  t.equal(json.status, 415, 'only a form is read');
  t.equal(json.headers.get('location'), null);
  t.match(json.headers.get('content-type'), /text\/html/);
});

t.test('POST from the app\'s site, without Lanyard\'s SameSite=Lax cookie: handed on to GET, where the cookie is sent', async (t) => {
  const { browser, sessionId, idToken } = await signedIn();
  // A browser leaves Lanyard's SameSite=Lax session cookie off a form POSTed from another site.
  const res = await fetch(endpoint, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ id_token_hint: idToken, state: 'cross site' }).toString(),
  });
  t.equal(res.status, 303);
  const to = new URL(res.headers.get('location')!);
  t.equal(`${to.origin}${to.pathname}`, endpoint, 'on to the GET form');
  t.same([...to.searchParams], [['client_id', 'demo-app'], ['state', 'cross site']], 'by client_id: the ID token stays out of the URL');
  t.ok(await sessionStored(sessionId), 'nothing ended yet: the cookie was not sent');

  // The redirect is a top-level GET navigation: the browser sends the cookie now.
  const next = await browser.get(to);
  t.equal(next.status, 303);
  t.equal(new URL(next.headers.get('location')!).searchParams.get('state'), 'cross site');
  t.equal(next.headers.get('location'), `${DEMO_LOGOUT}?state=cross+site`);
  t.notOk(await sessionStored(sessionId), 'stored session destroyed');
});
