import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import t, { type Test } from 'tap';
import type { User } from '../../adapters/store.js';
import { serviceClaimNames } from '../../src/accounts/claims.js';
import { signOutEverywhere, suspend, unsuspend } from '../../src/accounts/user-admin.js';
import { systemClock } from '../../src/clock.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { startRedis } from '../helpers/redis-server.js';
import { type Credentials, PUPIL, signIn, TEACHER } from '../helpers/sign-in.js';
import { DEMO_CALLBACK, demoBasic } from '../helpers/tokens.js';
import { storedId } from '../../adapters/record-ids.js';

/**
 * GET /api/user (docs/dashboard-and-app-launch.md): the signed-in user for an access token Lanyard issued for them, checked as
 * oidc-provider's userinfo checks a token; RFC 6750 errors and challenges; no caching; a store failure is 503;
 * its OpenAPI 3.1 document. Real HTTP, real sign-ins, real tokens; tokens the token endpoint cannot produce
 * (another audience, no user, DPoP-bound) are made through oidc-provider's public models.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const REALM = 'lanyard-api';

/** Signs `who` in (fresh browser) with `scope` and exchanges the code (with `headers` added): the token endpoint's JSON. */
async function tokensFor(lanyard: Lanyard, who: Credentials, scope = 'openid', headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const authorize = new URL(`${lanyard.url}/oauth/authorize`);
  for (const [k, v] of Object.entries({ client_id: 'demo-app', redirect_uri: DEMO_CALLBACK, response_type: 'code', scope })) {
    authorize.searchParams.set(k, v);
  }
  // A nonce belongs to OpenID Connect: without openid it is invalid_request.
  if (scope.split(' ').includes('openid')) authorize.searchParams.set('nonce', 'n-1');
  const callback = await signIn(new HttpBrowser(), lanyard.url, authorize, who);
  const res = await fetch(`${lanyard.url}/oauth/token`, {
    method: 'POST',
    headers: { ...headers, authorization: demoBasic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: DEMO_CALLBACK }),
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return await res.json() as Record<string, string>;
}

async function getUser(lanyard: Lanyard, token: string | null, path = '/api/user', init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token !== null) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(`${lanyard.url}${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) as Json : undefined };
}

const claimsOf = (idToken: string) => JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

async function userByName(lanyard: Lanyard, username: string): Promise<User> {
  const org = await lanyard.store.findOrganisation('demo-school');
  return (await lanyard.store.findUserByUsername(org!.id, username))!;
}

/** oidc-provider's public models, on the running instance. */
const providerOf = (lanyard: Lanyard) => lanyard.app.lanyard.host.provider;

/** A grant saved through the provider's Grant model (as the authorization endpoint saves one). */
async function saveGrant(lanyard: Lanyard, accountId: string, clientId = 'demo-app'): Promise<string> {
  const grant = new (providerOf(lanyard).Grant)({ accountId, clientId });
  grant.addOIDCScope('openid');
  return grant.save();
}

interface MintOptions { accountId?: string | undefined; grantId?: string; scope?: string; aud?: string; expiresIn?: number; iat?: number; jkt?: string }

/** An access token saved through the provider's AccessToken model, with what the token endpoint would not give. */
async function mintToken(lanyard: Lanyard, o: MintOptions): Promise<string> {
  const provider = providerOf(lanyard);
  const client = await provider.Client.find('demo-app');
  const token = new provider.AccessToken({
    client: client!,
    accountId: o.accountId as string,
    grantId: o.grantId ?? await saveGrant(lanyard, o.accountId!),
    gty: 'authorization_code',
    scope: o.scope ?? 'openid',
    expiresWithSession: false,
    ...(o.aud ? { aud: o.aud } : {}),
    ...(o.iat ? { iat: o.iat } : {}),
    ...(o.jkt ? { jkt: o.jkt } : {}),
    ...(o.expiresIn ? { expiresIn: o.expiresIn } : {}),
  });
  return token.save();
}

const expectInvalidToken = (t: Test, res: Awaited<ReturnType<typeof getUser>>, what: string) => {
  t.equal(res.status, 401, `${what}: 401`);
  t.match(res.headers.get('www-authenticate'), new RegExp(`^Bearer realm="${REALM}", error="invalid_token", error_description="[^"]+"$`), `${what}: the invalid_token challenge`);
  t.equal(res.json?.error, 'invalid_token', `${what}: invalid_token in the body`);
  t.type(res.json?.error_description, 'string');
  t.equal(res.headers.get('cache-control'), 'no-store', `${what}: no-store`);
};

const lanyard = await startLanyard(t);
const teacher = await tokensFor(lanyard, TEACHER);
const org = (await lanyard.store.findOrganisation('demo-school'))!;

t.test('a teacher: every field, the same values as the ID token, no-store, logged without the token', async (t) => {
  const res = await getUser(lanyard, teacher.access_token!);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.equal(res.headers.get('cache-control'), 'no-store');
  const claims = claimsOf(teacher.id_token!);
  t.same(res.json, {
    id: claims.sub,
    type: 'employee',
    username: 'teacher',
    given_name: 'Tess',
    family_name: 'Teacher',
    email: 'teacher@demo-school.example',
    organisation: { id: org.id, slug: 'demo-school', name: 'Demo School' },
  }, 'exactly these fields: no service_providers when nothing is matched');
  for (const claim of ['given_name', 'family_name', 'type', 'email'] as const) t.equal(res.json[claim], claims[claim], `${claim} as in the ID token`);
  t.equal(res.json.id, claims.sub, 'id is the sub');

  const line = lanyard.logs.map((l) => JSON.parse(l) as Json).find((l) => l.event === 'api.user');
  t.match(line, { event: 'api.user', clientId: 'demo-app', accountId: claims.sub }, 'api.user logged with the client and account');
  t.notOk(lanyard.logs.some((l) => l.includes(teacher.access_token!)), 'never the token');
});

t.test('a pupil without email: email left out (not null), the matched Google account and roster id, no Microsoft', async (t) => {
  const pupil = await tokensFor(lanyard, PUPIL);
  const res = await getUser(lanyard, pupil.access_token!);
  t.equal(res.status, 200);
  const claims = claimsOf(pupil.id_token!);
  const names = serviceClaimNames(lanyard.url);
  t.notOk('email' in res.json, 'no email key at all');
  t.same(res.json, {
    id: claims.sub,
    type: 'student',
    username: 'pupil',
    given_name: 'Pip',
    family_name: 'Pupil',
    organisation: { id: org.id, slug: 'demo-school', name: 'Demo School' },
    service_providers: { google: { email: 'pupil@demo-school-google.example' }, roster: { id: 'roster-pupil-0001' } },
  });
  t.equal(res.json.service_providers.google.email, claims[names.googleEmail], 'google as the google_email claim');
  t.equal(res.json.service_providers.roster.id, claims[names.rosterId], 'roster as the roster_id claim');
  t.notOk('microsoft' in res.json.service_providers, 'no microsoft key');
  t.notOk(names.microsoftEmail in claims, 'as the ID token has none');
});

t.test('scopes: user:read without openid reads the user; roster:read alone is 403 insufficient_scope', async (t) => {
  const api = await tokensFor(lanyard, TEACHER, 'user:read');
  t.notOk('id_token' in api, 'no openid: no id_token');
  const ok = await getUser(lanyard, api.access_token!);
  t.equal(ok.status, 200, 'user:read is enough');
  t.equal(ok.json.username, 'teacher');

  const roster = await tokensFor(lanyard, TEACHER, 'roster:read');
  const res = await getUser(lanyard, roster.access_token!);
  t.equal(res.status, 403);
  t.match(res.headers.get('www-authenticate'),
    new RegExp(`^Bearer realm="${REALM}", error="insufficient_scope", error_description="[^"]+", scope="openid user:read"$`), 'RFC 6750 §3.1 challenge with the scopes that would do');
  t.equal(res.json.error, 'insufficient_scope');
  t.equal(res.headers.get('cache-control'), 'no-store');
});

t.test('no token: 401 with the bare challenge; a garbage or malformed one: 401 invalid_token', async (t) => {
  for (const [what, headers] of [['no Authorization', {}], ['another scheme', { authorization: demoBasic }]] as const) {
    const res = await getUser(lanyard, null, '/api/user', { headers });
    t.equal(res.status, 401, `${what}: 401`);
    t.equal(res.headers.get('www-authenticate'), `Bearer realm="${REALM}"`, `${what}: the challenge, without an error code (RFC 6750 §3.1)`);
    t.equal(res.json.error, 'unauthenticated');
    t.equal(res.headers.get('cache-control'), 'no-store');
  }
  expectInvalidToken(t, await getUser(lanyard, 'not-a-token-at-all'), 'an unknown token');
  expectInvalidToken(t, await getUser(lanyard, null, '/api/user', { headers: { authorization: 'Bearer' } }), 'Bearer and nothing');
  expectInvalidToken(t, await getUser(lanyard, null, '/api/user', { headers: { authorization: `Bearer ${teacher.access_token} extra` } }), 'two values');
});

t.test('userinfo answers another scheme as no token: 401 with the bare challenge (RFC 6750 §3.1), as /api/user does', async (t) => {
  const issuer = lanyard.url;
  for (const [what, headers] of [['no Authorization', {}], ['Basic', { authorization: demoBasic }], ['an unknown scheme', { authorization: 'Token abc' }]] as const) {
    const res = await fetch(`${lanyard.url}/oauth/userinfo`, { headers });
    t.equal(res.status, 401, `${what}: 401`);
    t.equal(res.headers.get('www-authenticate'), `Bearer realm="${issuer}"`, `${what}: the challenge, without an error code`);
    t.same(await res.json(), await (await getUser(lanyard, null, '/api/user', { headers })).json, `${what}: /api/user's body (unauthenticated), not invalid_token about a token never sent`);
  }
  const { access_token: token } = await tokensFor(lanyard, TEACHER);
  const post = await fetch(`${lanyard.url}/oauth/userinfo`, {
    method: 'POST',
    headers: { authorization: demoBasic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ access_token: token! }),
  });
  t.equal(post.status, 200, 'Basic beside a token in the form body (RFC 6750 §2.2): the token is read');
  const malformed = await fetch(`${lanyard.url}/oauth/userinfo`, { headers: { authorization: 'Bearer' } });
  t.equal(malformed.status, 400, 'Bearer without a token is still a malformed request (invalid_request)');
  t.match(malformed.headers.get('www-authenticate'), /error="invalid_request"/);
});

t.test('expired tokens are refused', async (t) => {
  const accountId = claimsOf(teacher.id_token!).sub as string;
  const short = await mintToken(lanyard, { accountId, expiresIn: 1 });
  await sleep(1_100); // its one second is over: past exp, and gone from the store
  expectInvalidToken(t, await getUser(lanyard, short), 'a token whose lifetime ran out');

  // A token the store still holds but whose exp is past (beyond oidc-provider's 15 s clock tolerance).
  const { access_token: value } = await tokensFor(lanyard, TEACHER);
  t.equal((await getUser(lanyard, value!)).status, 200, 'valid before');
  const stored = await lanyard.store.oidc.find('AccessToken', storedId('AccessToken', value!));
  t.ok(stored, 'the record, by the token’s hash');
  await lanyard.store.oidc.upsert('AccessToken', storedId('AccessToken', value!), { ...stored, exp: Math.floor(Date.now() / 1000) - 60 }, 600);
  expectInvalidToken(t, await getUser(lanyard, value!), 'a stored token past its exp');
});

t.test('revoked tokens are refused: /oauth/revoke, a replayed refresh token, the user signed out everywhere', async (t) => {
  const revoked = await tokensFor(lanyard, TEACHER);
  t.equal((await getUser(lanyard, revoked.access_token!)).status, 200, 'valid before');
  const revoke = await fetch(`${lanyard.url}/oauth/revoke`, {
    method: 'POST',
    headers: { authorization: demoBasic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: revoked.access_token!, token_type_hint: 'access_token' }),
  });
  t.equal(revoke.status, 200, 'revoked at /oauth/revoke');
  expectInvalidToken(t, await getUser(lanyard, revoked.access_token!), 'after /oauth/revoke');

  const first = await tokensFor(lanyard, TEACHER);
  const refresh = (refreshToken: string) => fetch(`${lanyard.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: demoBasic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
  const rotated = await refresh(first.refresh_token!);
  t.equal(rotated.status, 200, 'refreshed');
  const second = await rotated.json() as Record<string, string>;
  t.equal((await getUser(lanyard, second.access_token!)).status, 200, 'the refreshed access token works');
  t.equal((await refresh(first.refresh_token!)).status, 400, 'the retired refresh token replayed: invalid_grant, the grant revoked');
  expectInvalidToken(t, await getUser(lanyard, second.access_token!), 'after a refresh token replay');

  const later = await tokensFor(lanyard, PUPIL);
  t.equal((await getUser(lanyard, later.access_token!)).status, 200, 'valid before');
  await signOutEverywhere(lanyard.store, await userByName(lanyard, 'pupil'));
  expectInvalidToken(t, await getUser(lanyard, later.access_token!), 'after the user is signed out everywhere');
});

t.test('a client that sends a DPoP proof still gets a Bearer token that opens the API (SPEC: token_type is constant)', async (t) => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const proof = async () => new SignJWT({ htm: 'POST', htu: `${lanyard.url}/oauth/token`, jti: randomBytes(16).toString('base64url') })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(publicKey) })
    .setIssuedAt()
    .sign(privateKey);
  const tokens = await tokensFor(lanyard, TEACHER, 'openid', { dpop: await proof() });
  t.equal(tokens.token_type, 'Bearer', 'the exchange: Bearer, not DPoP');
  t.equal((await getUser(lanyard, tokens.access_token!)).status, 200, 'the access token opens /api/user as a bearer token');
  const userinfo = await fetch(`${lanyard.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  t.equal(userinfo.status, 200, 'and userinfo');
  const refreshed = await fetch(`${lanyard.url}/oauth/token`, {
    method: 'POST',
    headers: { dpop: await proof(), authorization: demoBasic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }),
  });
  const again = await refreshed.json() as Record<string, string>;
  t.equal(again.token_type, 'Bearer', 'a refresh with a proof: Bearer too');
  t.equal((await getUser(lanyard, again.access_token!)).status, 200, 'and its access token opens /api/user');
  const discovery = await (await fetch(`${lanyard.url}/.well-known/openid-configuration`)).json() as Record<string, unknown>;
  t.notOk('dpop_signing_alg_values_supported' in discovery || 'pushed_authorization_request_endpoint' in discovery,
    'discovery offers neither DPoP nor pushed authorization requests');
});

t.test('tokens that are not access tokens for a user of this API are refused', async (t) => {
  const accountId = claimsOf(teacher.id_token!).sub as string;
  const api = await mintToken(lanyard, { accountId, scope: 'user:read', aud: `${lanyard.url}/api` });
  t.equal((await getUser(lanyard, api)).status, 200, 'a token made the same way for Lanyard’s API works (the control)');

  expectInvalidToken(t, await getUser(lanyard, await mintToken(lanyard, { accountId, scope: 'user:read', aud: 'https://other.example/api' })), 'another audience');
  expectInvalidToken(t, await getUser(lanyard, teacher.id_token!), 'an ID token');
  expectInvalidToken(t, await getUser(lanyard, teacher.refresh_token!), 'a refresh token');
  expectInvalidToken(t, await getUser(lanyard, await mintToken(lanyard, { accountId: undefined, grantId: await saveGrant(lanyard, accountId) })), 'no user (an app’s own token)');
  expectInvalidToken(t, await getUser(lanyard, await mintToken(lanyard, { accountId, jkt: randomBytes(32).toString('base64url') })), 'DPoP-bound');

  const pupilId = (await userByName(lanyard, 'pupil')).id;
  expectInvalidToken(t, await getUser(lanyard, await mintToken(lanyard, { accountId, grantId: await saveGrant(lanyard, pupilId) })), 'a grant of another user');

  // The token record of a real token, re-issued to an app that does not exist (and a grant of that app).
  const stored = await lanyard.store.oidc.find('AccessToken', storedId('AccessToken', api));
  t.ok(stored, 'the record of a real token, by its hash');
  const gone = randomBytes(32).toString('base64url');
  await lanyard.store.oidc.upsert('AccessToken', storedId('AccessToken', gone), { ...stored, clientId: 'gone-app', grantId: await saveGrant(lanyard, accountId, 'gone-app') }, 600);
  expectInvalidToken(t, await getUser(lanyard, gone), 'the app no longer exists');
});

/** A GET with a body, which fetch cannot send. */
function getWithBody(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; json: Json }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) as Json }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

t.test('a token in the URL or in a body is refused (RFC 6750 §2.2, §2.3), even with a header too', async (t) => {
  const token = teacher.access_token!;
  for (const [what, header] of [['alone', null], ['with a header too', token]] as const) {
    const res = await getUser(lanyard, header, `/api/user?access_token=${encodeURIComponent(token)}`);
    t.equal(res.status, 400, `in the URL, ${what}: 400`);
    t.equal(res.json.error, 'invalid_request');
    t.match(res.headers.get('www-authenticate'), /error="invalid_request"/);
    t.equal(res.headers.get('cache-control'), 'no-store');
  }
  t.equal((await getUser(lanyard, token, `/api/user?ACCESS_TOKEN=${token}`)).status, 400, 'the name in any case');
  t.notOk(lanyard.logs.some((l) => l.includes(token)), 'the token in the URL was not logged');

  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const post = await getUser(lanyard, null, '/api/user', { method: 'POST', headers: form, body: new URLSearchParams({ access_token: token }) });
  t.equal(post.status, 400, 'a form body (RFC 6750 §2.2): 400');
  t.equal(post.json.error, 'invalid_request');
  const get = await getWithBody(`${lanyard.url}/api/user`, { authorization: `Bearer ${token}`, ...form }, `access_token=${token}`);
  t.equal(get.status, 400, 'a GET with a body: 400');
  t.equal(get.json.error, 'invalid_request');

  const other = await fetch(`${lanyard.url}/api/user`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  t.equal(other.status, 405, 'another method without a body: 405');
  t.equal(other.headers.get('allow'), 'GET, HEAD');
  const head = await fetch(`${lanyard.url}/api/user`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
  t.equal(head.status, 200, 'HEAD answers as GET');
});

t.test('paths under /api that are not the API keep the JSON 404', async (t) => {
  const res = await getUser(lanyard, teacher.access_token!, '/api/users');
  t.equal(res.status, 404);
  t.equal(res.json.error, 'not_found');
});

t.test('suspended or signed-out users: their tokens are refused, even ones written back afterwards', async (t) => {
  const own = await startLanyard(t);
  const tokens = await tokensFor(own, TEACHER);
  const user = await userByName(own, 'teacher');
  t.equal((await getUser(own, tokens.access_token!)).status, 200, 'valid before');

  await suspend(own.store, systemClock, user);
  expectInvalidToken(t, await getUser(own, tokens.access_token!), 'the user suspended');
  // What a request under way could write back after the suspension: a fresh grant and token.
  const writtenBack = await mintToken(own, { accountId: user.id });
  expectInvalidToken(t, await getUser(own, writtenBack), 'a token saved after the suspension');
  await unsuspend(own.store, (await own.store.findUser(user.id))!);
  t.equal((await getUser(own, writtenBack)).status, 200, 'the same token once the suspension is lifted: it was the suspension');

  await signOutEverywhere(own.store, (await own.store.findUser(user.id))!);
  const signedOutAt = (await own.store.findUser(user.id))!.sessionsValidAfter!;
  const before = await mintToken(own, { accountId: user.id, iat: Math.floor(signedOutAt / 1000) - 10 });
  expectInvalidToken(t, await getUser(own, before), 'a token issued before the user was signed out everywhere');
  t.equal((await getUser(own, await mintToken(own, { accountId: user.id }))).status, 200, 'one issued after it counts');
});

t.test('/api/openapi.json: OpenAPI 3.1 with GET /api/user, its errors and bearer security; a real answer fits it', async (t) => {
  const res = await fetch(`${lanyard.url}/api/openapi.json`);
  t.equal(res.status, 200, 'no token needed');
  t.equal(res.headers.get('cache-control'), 'no-store');
  const doc: Json = await res.json();
  t.equal(doc.openapi, '3.1.0');
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  t.same(result.errors, undefined, 'no validation errors');
  t.ok(result.valid, 'valid OpenAPI 3.1');
  t.same(Object.keys(doc.paths).sort(), ['/api/openapi.json', '/api/user'], 'only this API’s paths');
  t.same(Object.keys(doc.paths['/api/user']), ['get'], 'GET only (the 405 answer is not an operation)');
  t.match(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer' });
  t.same(doc.security, [{ bearerAuth: [] }]);
  const op = doc.paths['/api/user'].get;
  for (const status of ['200', '400', '401', '403', '503']) t.ok(op.responses[status], `documents ${status}`);
  t.ok(op.responses['401'].headers['WWW-Authenticate'], 'the 401 challenge header');
  t.ok(op.responses['503'].headers['Retry-After'], 'Retry-After on 503');
  const user = doc.components.schemas.User;
  t.same(Object.keys(user.properties), ['id', 'type', 'username', 'given_name', 'family_name', 'email', 'organisation', 'service_providers']);
  t.same(user.required, ['id', 'type', 'username', 'given_name', 'family_name', 'organisation']);

  const developerDoc: Json = await (await fetch(`${lanyard.url}/developer/api/openapi.json`)).json();
  t.notOk(Object.keys(developerDoc.paths).some((p) => p.startsWith('/api/')), 'the developer API’s document does not list this API');

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const schemaOf = (status: string) => JSON.parse(JSON.stringify(op.responses[status].content['application/json'].schema).replaceAll('"#/components/', '"doc#/components/'));
  const validUser = ajv.compile(schemaOf('200'));
  for (const who of [TEACHER, PUPIL]) {
    const body = (await getUser(lanyard, (await tokensFor(lanyard, who)).access_token!)).json;
    t.ok(validUser(body), `${who.username}: the 200 body fits the documented schema ${JSON.stringify(validUser.errors)}`);
  }
  t.notOk(validUser({ ...(await getUser(lanyard, teacher.access_token!)).json, email: null }), 'and the schema refuses a null email');
  const validError = ajv.compile(schemaOf('401'));
  t.ok(validError((await getUser(lanyard, 'nope')).json), 'a 401 body fits the documented error');
});

t.test('a store failure is 503 with Retry-After, never a 500', async (t) => {
  const redis = await startRedis(t);
  const own = await startLanyard(t, {
    env: {
      LANYARD_STORE: redis.url,
      LANYARD_REDIS_PREFIX: `user-api-${randomBytes(4).toString('hex')}`,
      LANYARD_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    },
  });
  const tokens = await tokensFor(own, TEACHER);
  t.equal((await getUser(own, tokens.access_token!)).status, 200, 'works on Redis');
  await redis.stop();
  const res = await getUser(own, tokens.access_token!);
  t.equal(res.status, 503);
  t.ok(Number(res.headers.get('retry-after')) > 0, 'Retry-After');
  t.equal(res.headers.get('cache-control'), 'no-store');
  t.equal(res.json.error, 'temporarily_unavailable');
  t.notOk(own.logs.some((l) => /"statusCode":500/.test(l)), 'no 500 logged');
});
