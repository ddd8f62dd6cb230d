import * as client from 'openid-client';
import t from 'tap';
import { AUTHORIZE_FORM_LIMIT } from '../../src/provider/authorize-post.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { authorizationRequest, DEMO_CLIENT, relyingParty } from '../helpers/relying-party.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';

/**
 * POST /oauth/authorize (OpenID Connect Core §3.1.2.1: the authorization endpoint MUST support GET and POST,
 * POST with form serialization). A POSTed request is answered 303 with the GET form of the same request, so
 * that the browser carries Lanyard's SameSite=Lax session cookie to it (test/browser/authorize-post.test.ts
 * shows that in Chromium, from another site). Real HTTP, a real sign-in, openid-client finishing the flow.
 */

const lanyard = await startLanyard(t);
const rp = await relyingParty(lanyard.url);
const authorizePath = `${lanyard.url}/oauth/authorize`;

const post = (body: string, query = '', headers: Record<string, string> = {}) => fetch(`${authorizePath}${query}`, {
  method: 'POST',
  redirect: 'manual',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body,
});

t.test('a POSTed request becomes its GET form, and signs in like one', async (t) => {
  const req = await authorizationRequest(rp);
  const res = await post(req.url.searchParams.toString());
  t.equal(res.status, 303, '303 See Other');
  t.equal(res.headers.get('cache-control'), 'no-store');
  const to = location(res, lanyard.url);
  t.equal(`${to.origin}${to.pathname}`, authorizePath, 'to the authorization endpoint itself');
  t.same([...to.searchParams].sort(), [...req.url.searchParams].sort(), 'with every parameter, unchanged');

  const callback = await signIn(new HttpBrowser(), lanyard.url, to, TEACHER);
  t.equal(`${callback.origin}${callback.pathname}`, DEMO_CLIENT.redirectUri, 'the sign-in ends at the callback');
  const tokens = await client.authorizationCodeGrant(rp, callback, { expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier });
  t.equal(tokens.claims()!.given_name, 'Tess', 'openid-client takes the code: an ID token for the teacher');
});

t.test('parameters in the URL and in the form are both kept; one sent in both is refused as a repeated parameter', async (t) => {
  const req = await authorizationRequest(rp);
  const params = new URLSearchParams(req.url.searchParams);
  const inUrl = new URLSearchParams({ client_id: params.get('client_id')!, state: params.get('state')! });
  params.delete('client_id');
  params.delete('state');
  const to = location(await post(params.toString(), `?${inUrl}`), lanyard.url);
  t.same([...to.searchParams].sort(), [...req.url.searchParams].sort(), 'the two halves together');

  const twice = location(await post(`${params}&scope=openid`, `?${inUrl}`), lanyard.url);
  t.same(twice.searchParams.getAll('scope'), ['openid', 'openid'], 'a scope in both places stays two');
  const answer = await fetch(twice, { redirect: 'manual' });
  t.equal(answer.status, 303);
  const back = location(answer, lanyard.url);
  t.equal(`${back.origin}${back.pathname}`, DEMO_CLIENT.redirectUri, 'the error goes back to the app');
  t.equal(back.searchParams.get('error'), 'invalid_request', 'invalid_request, as for a scope repeated in one URL');
  t.equal(back.searchParams.get('state'), req.state, 'with the state');
});

t.test('a POST with only URL parameters, or an empty form, is the GET of those parameters', async (t) => {
  const req = await authorizationRequest(rp);
  const res = await fetch(`${authorizePath}?${req.url.searchParams}`, { method: 'POST', redirect: 'manual' });
  t.equal(res.status, 303);
  t.same([...location(res, lanyard.url).searchParams].sort(), [...req.url.searchParams].sort());
  const empty = await post('');
  t.equal(empty.status, 303);
  t.equal(location(empty, lanyard.url).href, authorizePath, 'no parameters: the bare endpoint, whose error page says what is missing');
});

t.test('only a form, and not too long a one', async (t) => {
  const json = await post('{"client_id":"demo-app"}', '', { 'content-type': 'application/json', accept: 'text/html' });
  t.equal(json.status, 415, 'a JSON body: 415');
  t.match(await json.text(), /<h1>/, 'an HTML page for a browser');
  t.equal(json.headers.get('location'), null, 'no redirect');

  const req = await authorizationRequest(rp);
  const long = await post(`${req.url.searchParams}&login_hint=${'a'.repeat(AUTHORIZE_FORM_LIMIT)}`);
  t.equal(long.status, 413, `a form over ${AUTHORIZE_FORM_LIMIT} bytes: 413`);
  t.equal(long.headers.get('location'), null, 'no redirect');
});

t.test('the request is logged once, with its event and without its secrets', async (t) => {
  const before = lanyard.logs.length;
  await post(`client_id=demo-app&id_token_hint=secret-hint-value&redirect_uri=${encodeURIComponent(DEMO_CLIENT.redirectUri)}`);
  await new Promise((resolve) => setTimeout(resolve, 200)); // the line is written when the response closes
  const lines = lanyard.logs.slice(before).filter((l) => l.includes('"POST"'));
  t.equal(lines.length, 1, 'one line for the POST');
  t.match(lines[0], /"event":"authorize\.post"/, 'with its event');
  t.notMatch(lanyard.logs.slice(before).join('\n'), /secret-hint-value/, 'the id_token_hint in no log line');
});
