import t from 'tap';
import * as client from 'openid-client';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { PUPIL, signIn, TEACHER } from '../helpers/sign-in.js';
import { authorizationRequest, DEMO_CLIENT, relyingParty } from '../helpers/relying-party.js';

t.test('a standard OIDC client signs the demo teacher in end to end', async (t) => {
  const lanyard = await startLanyard(t);
  const issuer = lanyard.url;
  const rp = await relyingParty(issuer);
  t.equal(rp.serverMetadata().issuer, issuer, 'discovered issuer');

  const browser = new HttpBrowser();
  const req = await authorizationRequest(rp);
  const callback = await signIn(browser, issuer, req.url, TEACHER);
  t.equal(`${callback.origin}${callback.pathname}`, DEMO_CLIENT.redirectUri, 'back at the registered callback');
  t.ok(callback.searchParams.get('code'), 'with a code');
  t.equal(callback.searchParams.get('state'), req.state, 'and the state');

  const tokens = await client.authorizationCodeGrant(rp, callback, {
    expectedNonce: req.nonce,
    expectedState: req.state,
    pkceCodeVerifier: req.codeVerifier,
  });
  t.equal(tokens.token_type.toLowerCase(), 'bearer');
  t.ok(tokens.access_token);
  t.ok(tokens.refresh_token, 'refresh_token always present');
  t.ok(tokens.id_token);
  t.equal(tokens.expires_in, 86400, 'access token valid 24 hours');

  // The ID token, verified independently against the published key set.
  const header = decodeProtectedHeader(tokens.id_token!);
  t.same({ alg: header.alg, typ: header.typ }, { alg: 'RS256', typ: 'JWT' });
  const jwks = await (await fetch(`${issuer}/.well-known/jwks.json`)).json() as { keys: { kid: string }[] };
  t.ok(jwks.keys.some((k) => k.kid === header.kid), 'kid is in the key set');
  const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)), {
    issuer,
    audience: DEMO_CLIENT.id,
    algorithms: ['RS256'],
  });
  t.match(payload.sub, /^[a-z]\d+$/, 'sub is a letter followed by digits');
  t.equal(payload.nonce, req.nonce, 'nonce passed through unmodified');
  t.equal(payload.email, 'teacher@demo-school.example');
  t.equal(payload.given_name, 'Tess');
  t.equal(payload.family_name, 'Teacher');
  t.equal(payload.type, 'employee');
  t.ok(payload.iat! <= Math.ceil(Date.now() / 1000) && payload.exp! > payload.iat!, 'iat and exp');
  for (const claim of ['google_email', 'microsoft_email', 'roster_id']) {
    t.notOk(`${issuer}/claims/${claim}` in payload, `${claim} omitted, not null`);
  }

  const userinfo = await client.fetchUserInfo(rp, tokens.access_token, payload.sub!);
  t.equal(userinfo.sub, payload.sub);
  t.equal(userinfo.email, 'teacher@demo-school.example');
  t.equal(userinfo.type, 'employee');

  const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
  t.ok(refreshed.access_token, 'refresh grant works');
  t.not(refreshed.access_token, tokens.access_token);
  t.equal(refreshed.claims()?.sub, payload.sub, 'refreshed id_token for the same user');
  t.ok(refreshed.refresh_token && refreshed.refresh_token !== tokens.refresh_token, 'refresh token rotated');
  const reused = await client.refreshTokenGrant(rp, tokens.refresh_token!).catch((err: { error?: string }) => err);
  t.equal((reused as { error?: string }).error, 'invalid_grant', 'the old refresh token is retired');

  // Logout: straight to the registered logout_url, and the session is gone.
  const out = await browser.get(`${issuer}/oauth/logout?client_id=${DEMO_CLIENT.id}`);
  t.equal(out.status, 303);
  t.equal(out.headers.get('location'), 'http://localhost:8080/signed-out');
  const again = await browser.get((await authorizationRequest(rp)).url);
  t.match(again.headers.get('location'), /\/interaction\//, 'after logout the user must sign in again');
});

t.test('pupil: service claims present, email omitted', async (t) => {
  const lanyard = await startLanyard(t);
  const rp = await relyingParty(lanyard.url);
  const req = await authorizationRequest(rp);
  const callback = await signIn(new HttpBrowser(), lanyard.url, req.url, PUPIL);
  const tokens = await client.authorizationCodeGrant(rp, callback, {
    expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier,
  });
  const claims = tokens.claims()!;
  t.equal(claims.type, 'student');
  t.notOk('email' in claims, 'no email claim at all');
  t.equal(claims[`${lanyard.url}/claims/google_email`], 'pupil@demo-school-google.example');
  t.equal(claims[`${lanyard.url}/claims/roster_id`], 'roster-pupil-0001');
  t.notOk(`${lanyard.url}/claims/microsoft_email` in claims);
});

t.test('an existing session signs in without the login screen', async (t) => {
  const lanyard = await startLanyard(t);
  const rp = await relyingParty(lanyard.url);
  const browser = new HttpBrowser();
  await signIn(browser, lanyard.url, (await authorizationRequest(rp)).url, TEACHER);
  const second = await authorizationRequest(rp);
  const res = await browser.get(second.url);
  const to = new URL(res.headers.get('location')!, lanyard.url);
  t.notMatch(to.pathname, /^\/interaction\//, 'no interaction needed');
});
