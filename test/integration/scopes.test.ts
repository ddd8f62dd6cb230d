import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { writeConfig } from '../helpers/config-file.js';

const CALLBACK = 'http://localhost:8080/callback';
const BASIC = `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`;

function authorizeUrl(issuer: string, params: Record<string, string>): string {
  const url = new URL(`${issuer}/oauth/authorize`);
  for (const [k, v] of Object.entries({ client_id: 'demo-app', redirect_uri: CALLBACK, response_type: 'code', state: 's1', ...params })) {
    url.searchParams.set(k, v);
  }
  return url.href;
}

async function exchangeInUrl(issuer: string, code: string) {
  const params = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK });
  const res = await fetch(`${issuer}/oauth/token?${params}`, { method: 'POST', headers: { authorization: BASIC } });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

t.test('no scope sent: the client default scopes (openid) apply, so an id_token is issued', async (t) => {
  const lanyard = await startLanyard(t);
  const callback = await signIn(new HttpBrowser(), lanyard.url, authorizeUrl(lanyard.url, {}), TEACHER);
  const { status, body } = await exchangeInUrl(lanyard.url, callback.searchParams.get('code')!);
  t.equal(status, 200);
  t.equal(body.token_type, 'Bearer');
  t.ok(body.access_token);
  t.ok(body.refresh_token);
  t.ok(body.id_token, 'id_token from the default scope');
  t.equal(body.scope, 'openid');
});

t.test('a scope without openid: only access_token and refresh_token', async (t) => {
  const lanyard = await startLanyard(t);
  const callback = await signIn(new HttpBrowser(), lanyard.url, authorizeUrl(lanyard.url, { scope: 'roster:read' }), TEACHER);
  const { status, body } = await exchangeInUrl(lanyard.url, callback.searchParams.get('code')!);
  t.equal(status, 200);
  t.ok(body.access_token);
  t.ok(body.refresh_token);
  t.notOk('id_token' in body, 'no id_token without openid');
});

t.test('no scope sent and a default scope without openid: no id_token', async (t) => {
  const config = writeConfig((c) => { c.clients[0]!.default_scopes = ['roster:read']; });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const callback = await signIn(new HttpBrowser(), lanyard.url, authorizeUrl(lanyard.url, {}), TEACHER);
  const { status, body } = await exchangeInUrl(lanyard.url, callback.searchParams.get('code')!);
  t.equal(status, 200);
  t.ok(body.access_token);
  t.notOk('id_token' in body);
  t.equal(body.scope, 'roster:read');
});

t.test('no scope sent and no default scopes: invalid_scope (RFC 6749 §3.3)', async (t) => {
  const config = writeConfig((c) => { c.clients[0]!.default_scopes = []; });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const res = await fetch(authorizeUrl(lanyard.url, {}), { redirect: 'manual' });
  const to = new URL(res.headers.get('location')!);
  t.equal(`${to.origin}${to.pathname}`, CALLBACK);
  t.equal(to.searchParams.get('error'), 'invalid_scope');
  t.equal(to.searchParams.get('state'), 's1');
  // RFC 6749 §4.1.2.1 (and RFC 9207): these, and nothing else, such as an empty scope=.
  t.same([...to.searchParams.keys()].sort(), ['error', 'error_description', 'iss', 'state'], 'error, error_description, iss and state only');
});

t.test('an access token for the API (no openid) refreshes and cannot read userinfo', async (t) => {
  const lanyard = await startLanyard(t);
  const callback = await signIn(new HttpBrowser(), lanyard.url, authorizeUrl(lanyard.url, { scope: 'roster:read' }), TEACHER);
  const { body } = await exchangeInUrl(lanyard.url, callback.searchParams.get('code')!);
  const refresh = await fetch(`${lanyard.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: String(body.refresh_token) }),
  });
  const refreshed = await refresh.json() as Record<string, unknown>;
  t.equal(refresh.status, 200);
  t.ok(refreshed.access_token);
  t.notOk('id_token' in refreshed);
  const userinfo = await fetch(`${lanyard.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${String(body.access_token)}` } });
  t.equal(userinfo.status, 403, 'userinfo needs an openid access token (RFC 6750 insufficient_scope)');
  t.match(userinfo.headers.get('www-authenticate'), /insufficient_scope/);
});

t.test('response_type=id_token returns a verified ID token in the fragment', async (t) => {
  const lanyard = await startLanyard(t);
  const nonce = 'n-' + 'x'.repeat(40);
  const callback = await signIn(new HttpBrowser(), lanyard.url,
    authorizeUrl(lanyard.url, { response_type: 'id_token', scope: 'openid', nonce }), TEACHER);
  t.equal(callback.search, '', 'nothing in the query');
  const fragment = new URLSearchParams(callback.hash.slice(1));
  t.equal(fragment.get('state'), 's1');
  t.notOk(fragment.get('code'));
  t.notOk(fragment.get('access_token'));
  const { jwtVerify, createRemoteJWKSet } = await import('jose');
  const { payload, protectedHeader } = await jwtVerify(fragment.get('id_token')!,
    createRemoteJWKSet(new URL(`${lanyard.url}/.well-known/jwks.json`)), { issuer: lanyard.url, audience: 'demo-app' });
  t.equal(protectedHeader.typ, 'JWT');
  t.equal(payload.nonce, nonce);
  t.equal(payload.given_name, 'Tess');
  t.equal(payload.type, 'employee');
  t.equal(payload.email, 'teacher@demo-school.example');
});
