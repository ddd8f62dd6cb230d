import tap from 'tap';
import { HttpBrowser } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { DEMO_BASIC_AUTH, DEMO_CLIENT, demoAuthorizationUrl } from '../helpers/relying-party.js';
import { demoCredentials } from '../helpers/demo-credentials.js';
import { signIn, signInAfterAWrongPassword, TEACHER } from '../helpers/sign-in.js';

/**
 * No credential in a log line: not the user's password (right or wrong), not the client secret (nor the
 * Basic header carrying it, nor the internal secret it is swapped for), not a code, access token, refresh
 * token or id_token, not a session cookie — including when a client puts them in the URL.
 */

const CALLBACK = DEMO_CLIENT.redirectUri;
const WRONG_PASSWORD = 'wrong-password-7Qx2';

const authorizeUrl = (lanyard: Lanyard, state: string) => demoAuthorizationUrl(lanyard.url, state);

interface Tokens { access_token: string; refresh_token: string; id_token: string }

async function token(lanyard: Lanyard, where: 'body' | 'url', params: Record<string, string>): Promise<Response> {
  const form = new URLSearchParams(params).toString();
  return fetch(`${lanyard.url}/oauth/token${where === 'url' ? `?${form}` : ''}`, {
    method: 'POST',
    headers: { authorization: DEMO_BASIC_AUTH, ...(where === 'body' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(where === 'body' ? { body: form } : {}),
  });
}

async function tokens(t: Pick<typeof tap, 'equal'>, res: Response): Promise<Tokens> {
  t.equal(res.status, 200, 'tokens issued');
  return await res.json() as Tokens;
}

tap.test('a full sign-in, code exchange and refresh write no credential to the log', async (t) => {
  const lanyard = await startLanyard(t);
  const base = lanyard.url;
  const browser = new HttpBrowser();
  const secrets = demoCredentials(lanyard, WRONG_PASSWORD);

  let res: Response;
  const code1 = await signInAfterAWrongPassword(t, browser, base, authorizeUrl(lanyard, 'one'), TEACHER, WRONG_PASSWORD);
  t.ok(code1, 'a first code');
  // The session cookie is a bearer credential. (The _interaction cookies hold the interaction uid, which is
  // in the login screens' URLs by design.)
  for (const [name, value] of browser.cookies) if (name.startsWith('_session')) secrets.set(`cookie ${name}`, value);
  t.ok(secrets.has('cookie _session'), 'the browser has a session cookie');

  // Code in the body, then (same browser session, no password) a code in the URL.
  const t1 = await tokens(t, await token(lanyard, 'body', { grant_type: 'authorization_code', code: code1, redirect_uri: CALLBACK }));
  const code2 = (await signIn(browser, base, authorizeUrl(lanyard, 'two'), TEACHER)).searchParams.get('code')!;
  t.ok(code2, 'a second code');
  const t2 = await tokens(t, await token(lanyard, 'url', { grant_type: 'authorization_code', code: code2, redirect_uri: CALLBACK }));

  // Refresh in the body and in the URL.
  const t3 = await tokens(t, await token(lanyard, 'body', { grant_type: 'refresh_token', refresh_token: t1.refresh_token }));
  const t4 = await tokens(t, await token(lanyard, 'url', { grant_type: 'refresh_token', refresh_token: t2.refresh_token }));

  // Requests that are refused, still carrying credentials (the URL is what gets logged).
  const code3 = (await signIn(browser, base, authorizeUrl(lanyard, 'three'), TEACHER)).searchParams.get('code')!;
  res = await token(lanyard, 'url', { grant_type: 'authorization_code', code: code3, redirect_uri: CALLBACK, client_secret: DEMO_CLIENT.secret });
  t.equal(res.status, 400, 'secret in the URL refused');
  res = await fetch(`${base}/oauth/userinfo?access_token=${encodeURIComponent(t4.access_token)}`);
  t.equal(res.status, 400, 'access token in the URL refused at userinfo');
  res = await fetch(`${base}/oauth/userinfo`, { headers: { authorization: `Bearer ${t4.access_token}` } });
  t.equal(res.status, 200, 'userinfo with the header');
  res = await fetch(`${base}/oauth/revoke?token=${encodeURIComponent(t3.refresh_token)}`, { method: 'POST', headers: { authorization: DEMO_BASIC_AUTH } });
  t.equal(res.status, 200, 'revocation with the token in the URL');
  res = await browser.get(`${base}/oauth/logout?client_id=${DEMO_CLIENT.id}&id_token_hint=${t4.id_token}`);
  t.equal(res.status, 303, 'logout');
  // Last, since it revokes the grant (every token above came from it).
  res = await token(lanyard, 'url', { grant_type: 'authorization_code', code: code1, redirect_uri: CALLBACK });
  t.equal(res.status, 400, 'replayed code refused (and its tokens revoked)');

  for (const [i, tk] of [t1, t2, t3, t4].entries()) {
    secrets.set(`access_token ${i + 1}`, tk.access_token);
    secrets.set(`refresh_token ${i + 1}`, tk.refresh_token);
    secrets.set(`id_token ${i + 1}`, tk.id_token);
    secrets.set(`id_token ${i + 1} signature`, tk.id_token.split('.')[2]!);
  }
  for (const [i, code] of [code1, code2, code3].entries()) secrets.set(`code ${i + 1}`, code);

  // The log is really there and covers what happened, so the absence checks below mean something.
  t.ok(lanyard.logs.length > 15, `lines were logged (${lanyard.logs.length})`);
  t.equal(lanyard.logs.filter((l) => l.includes('"event":"token.issued"')).length, 4, 'four token responses logged');
  t.ok(lanyard.logs.some((l) => l.includes('"event":"login.failed"')), 'the failed login logged');
  t.ok(lanyard.logs.some((l) => /"url":"\/oauth\/token\?[^"]*code=(\[redacted\]|%5Bredacted%5D)/.test(l)), 'the token URL logged, code redacted');
  t.ok(lanyard.logs.some((l) => /"url":"\/oauth\/token\?[^"]*refresh_token=(\[redacted\]|%5Bredacted%5D)/.test(l)), 'refresh token in the URL redacted');
  t.ok(lanyard.logs.some((l) => /"url":"\/oauth\/logout\?[^"]*id_token_hint=(\[redacted\]|%5Bredacted%5D)/.test(l)), 'id_token_hint redacted');
  for (const [name, value] of secrets) {
    t.ok(value.length >= 8, `${name} is long enough to search for`);
    const leaks = lanyard.logs.filter((l) => l.includes(value) || l.includes(encodeURIComponent(value)));
    t.same(leaks, [], `no log line contains ${name}`);
  }
});

tap.test('one log line per request, carrying its event', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const code = (await signIn(browser, lanyard.url, authorizeUrl(lanyard, 'once'), TEACHER)).searchParams.get('code')!;
  const first = lanyard.logs.length;
  const issued = await tokens(t, await token(lanyard, 'body', { grant_type: 'authorization_code', code, redirect_uri: CALLBACK }));
  await tokens(t, await token(lanyard, 'body', { grant_type: 'refresh_token', refresh_token: issued.refresh_token }));
  t.equal((await fetch(`${lanyard.url}/.well-known/openid-configuration`)).status, 200);
  const lines = lanyard.logs.slice(first);
  t.equal(lines.length, 3, `three requests, three lines:\n${lines.join('\n')}`);
  const tokenLines = lines.filter((l) => l.includes('"url":"/oauth/token"'));
  t.equal(tokenLines.length, 2, 'each token request logged once');
  for (const line of tokenLines) {
    const o = JSON.parse(line) as { event?: string; res?: { statusCode?: number }; responseTime?: number; grantType?: string };
    t.equal(o.event, 'token.issued', 'with its event');
    t.equal(o.res?.statusCode, 200, 'and its answer');
    t.type(o.responseTime, 'number', 'and its time');
  }
  t.notOk(lanyard.logs.some((l) => l.includes('"msg":"incoming request"')), 'no separate line when a request comes in');
});
