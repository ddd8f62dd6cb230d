import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { alertText } from '../helpers/children.js';
import { ManualClock } from '../../src/clock.js';
import { TTL } from '../../src/provider/ttl.js';
import { HttpBrowser, hiddenField, location } from '../helpers/http-browser.js';
import { writeConfig } from '../helpers/config-file.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { DEMO_CLIENT } from '../helpers/relying-party.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';

/**
 * Bad input at GET /oauth/authorize and on the hosted login screens. RFC 6749 §4.1.2.1: when the client or
 * the redirect_uri is not valid, the user is told and NEVER redirected; once both are valid, every other
 * problem goes back to the registered callback as `error` (+ `state`). Nothing is stored for a refused
 * request, and no page shows a stack trace.
 */

/** The assertions the helpers below use (what every tap test has). */
type Test = Pick<typeof t, 'equal' | 'match' | 'notMatch' | 'same'>;
type Params = Record<string, string | string[] | undefined>;

const CALLBACK = DEMO_CLIENT.redirectUri;

/** Builds an authorization URL by hand (no PKCE), so each parameter is exactly as the test wants it. */
function authorizeUrl(base: string, params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    for (const one of ([] as (string | undefined)[]).concat(v)) if (one !== undefined) q.append(k, one);
  }
  return `${base}/oauth/authorize?${q.toString()}`;
}

const goodParams = (state: string): Params => ({
  client_id: DEMO_CLIENT.id,
  redirect_uri: CALLBACK,
  response_type: 'code',
  scope: 'openid',
  state,
  nonce: `nonce-${state}`,
});

/** Rows in the oidc-provider table, per model: a refused request must not add any. */
function storedRecords(lanyard: Lanyard): Record<string, number> {
  const db = new Database(join(lanyard.dir, 'lanyard.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT model, COUNT(*) AS n FROM oidc_records GROUP BY model').all() as { model: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.model, r.n]));
  } finally {
    db.close();
  }
}

const noStackTrace = (t: Test, page: string) => {
  t.notMatch(page, /\bat [^\n]*\.(ts|js|mjs):\d+/, 'no stack trace in the page');
  t.notMatch(page, /node_modules|Error:/, 'no internals in the page');
};

/** The HTML error page for a request that cannot be sent back to the app: 400, no redirect, nothing stored. */
async function expectErrorPage(t: Test, lanyard: Lanyard, url: string, code: string, message: RegExp) {
  const before = storedRecords(lanyard);
  const res = await fetch(url, { redirect: 'manual' });
  const page = await res.text();
  t.equal(res.status, 400, 'status 400');
  t.equal(res.headers.get('location'), null, 'no Location header: never a redirect');
  t.match(res.headers.get('content-type'), /^text\/html/, 'an HTML page');
  t.match(page, '<h1>Cannot sign you in</h1>', 'the friendly error page');
  t.match(page, message, 'explains the problem');
  t.match(page, `Error code: <code>${code}</code>`, `error code ${code}`);
  t.notMatch(page, /http:\/\/localhost:8080|evil\.example|127\.0\.0\.1:8080/, 'does not link to the requested address');
  t.same(res.headers.getSetCookie(), [], 'no cookie set');
  noStackTrace(t, page);
  t.same(storedRecords(lanyard), before, 'nothing stored');
}

interface ErrorRedirect { error: string; state: string; mode?: 'query' | 'fragment' }

/** An error sent back to the registered callback (RFC 6749 §4.1.2.1, OIDC Core 3.2.2.6 for fragments). */
async function expectErrorRedirect(t: Test, lanyard: Lanyard, url: string, want: ErrorRedirect) {
  const before = storedRecords(lanyard);
  const res = await fetch(url, { redirect: 'manual' });
  t.equal(res.status, 303, 'redirected');
  const to = new URL(res.headers.get('location') ?? 'about:blank');
  t.equal(`${to.origin}${to.pathname}`, CALLBACK, 'to the registered callback, exactly');
  const params = new URLSearchParams(want.mode === 'fragment' ? to.hash.slice(1) : to.search);
  t.equal(want.mode === 'fragment' ? to.search : to.hash, '', `parameters only in the ${want.mode ?? 'query'}`);
  t.equal(params.get('error'), want.error, `error=${want.error}`);
  t.equal(params.get('state'), want.state, 'state returned');
  t.equal(params.get('iss'), lanyard.url, 'iss (RFC 9207)');
  t.equal(params.get('code'), null, 'no code');
  t.equal(params.get('id_token'), null, 'no id_token');
  t.same(storedRecords(lanyard), before, 'nothing stored');
  return params;
}

/** The first login screen, organisation picked: the password form with its csrf token. */
async function passwordForm(lanyard: Lanyard, browser: HttpBrowser, state: string) {
  const res = await browser.get(authorizeUrl(lanyard.url, goodParams(state)));
  const to = location(res, lanyard.url);
  const uid = to.pathname.split('/')[2]!;
  const page = await (await browser.get(`${lanyard.url}/interaction/${uid}/password?org=demo-school`)).text();
  return { uid, csrf: hiddenField(page, 'csrf'), org: hiddenField(page, 'org') };
}

/** Follows redirects (the browser's way) until it leaves Lanyard; returns where it went. */
async function followToApp(lanyard: Lanyard, browser: HttpBrowser, res: Response): Promise<URL> {
  let to = location(res, lanyard.url);
  for (let hops = 0; to.origin === lanyard.url && hops < 10; hops += 1) to = location(await browser.get(to), lanyard.url);
  return to;
}


t.test('a response_type the app has not registered: unauthorized_client back to the callback (RFC 6749 §4.1.2.1)', async (t) => {
  const config = writeConfig((c) => {
    c.clients.push({ client_id: 'code-only', name: 'Code Only', secrets: ['code-only-secret'], redirect_uris: [CALLBACK], response_types: ['code'] });
  });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const p = await expectErrorRedirect(t, lanyard, authorizeUrl(lanyard.url, { ...goodParams('rt-unregistered'), client_id: 'code-only', response_type: 'id_token' }),
    { error: 'unauthorized_client', state: 'rt-unregistered', mode: 'fragment' });
  t.match(p.get('error_description'), /not allowed for this client/);
  const res = await fetch(authorizeUrl(lanyard.url, { ...goodParams('rt-code'), client_id: 'code-only' }), { redirect: 'manual' });
  t.match(res.headers.get('location'), /^\/interaction\//, 'its registered response_type, code, still starts a sign-in');
  const demo = await fetch(authorizeUrl(lanyard.url, { ...goodParams('rt-demo'), response_type: 'id_token' }), { redirect: 'manual' });
  t.match(demo.headers.get('location'), /^\/interaction\//, 'and an app registered for id_token may use it');
});

t.test('GET /oauth/authorize and the login screens refuse bad input', async (t) => {
  const lanyard = await startLanyard(t);
  const base = lanyard.url;

  t.test('the well-formed request used as a baseline starts a sign-in', async (t) => {
    const res = await fetch(authorizeUrl(base, goodParams('baseline')), { redirect: 'manual' });
    t.equal(res.status, 303);
    t.match(res.headers.get('location'), /^\/interaction\/[\w-]+$/);
  });

  t.test('unknown client_id: error page, no redirect', async (t) => {
    await expectErrorPage(t, lanyard, authorizeUrl(base, { ...goodParams('s'), client_id: 'no-such-app' }),
      'invalid_client', /not registered with Lanyard/);
  });

  t.test('missing client_id: error page, no redirect', async (t) => {
    await expectErrorPage(t, lanyard, authorizeUrl(base, { ...goodParams('s'), client_id: undefined }),
      'invalid_request', /could not understand/);
  });

  t.test('two client_id parameters: error page (the client cannot be trusted to redirect to)', async (t) => {
    await expectErrorPage(t, lanyard, authorizeUrl(base, { ...goodParams('s'), client_id: [DEMO_CLIENT.id, DEMO_CLIENT.id] }),
      'invalid_request', /could not understand/);
  });

  // RFC 6749 §3.1.2.3 and OIDC Core 3.1.2.1: redirect_uri is compared as an exact string.
  const unregistered: [string, string][] = [
    ['trailing slash', `${CALLBACK}/`],
    ['different case in the path', 'http://localhost:8080/Callback'],
    ['extra query string', `${CALLBACK}?next=/admin`],
    ['a fragment', `${CALLBACK}#x`],
    ['another host', 'http://evil.example/callback'],
    ['another loopback host', 'http://127.0.0.1:8080/callback'],
    ['another port', 'http://localhost:8081/callback'],
    ['no port', 'http://localhost/callback'],
    ['https instead of http', 'https://localhost:8080/callback'],
    ['a longer path', `${CALLBACK}/../evil`],
    ['registered URI as a prefix', `${CALLBACK}.evil.example`],
  ];
  for (const [name, redirectUri] of unregistered) {
    t.test(`redirect_uri with ${name}: error page, never a redirect`, async (t) => {
      await expectErrorPage(t, lanyard, authorizeUrl(base, { ...goodParams('s'), redirect_uri: redirectUri }),
        'invalid_redirect_uri', /address it has not registered/);
    });
  }

  t.test('missing redirect_uri (SPEC: required): error page, never a redirect', async (t) => {
    await expectErrorPage(t, lanyard, authorizeUrl(base, { ...goodParams('s'), redirect_uri: undefined }),
      'invalid_request', /address it has not registered/);
  });

  t.test('two redirect_uri parameters: error page, never a redirect', async (t) => {
    await expectErrorPage(t, lanyard, authorizeUrl(base, { ...goodParams('s'), redirect_uri: [CALLBACK, 'http://evil.example/callback'] }),
      'invalid_request', /Cannot sign you in/);
  });

  t.test('missing response_type: invalid_request back to the callback', async (t) => {
    const p = await expectErrorRedirect(t, lanyard, authorizeUrl(base, { ...goodParams('no-rt'), response_type: undefined }),
      { error: 'invalid_request', state: 'no-rt' });
    t.match(p.get('error_description'), /response_type/);
  });

  t.test('response_type=token (implicit access token): unsupported_response_type, in the fragment', async (t) => {
    await expectErrorRedirect(t, lanyard, authorizeUrl(base, { ...goodParams('rt-token'), response_type: 'token' }),
      { error: 'unsupported_response_type', state: 'rt-token', mode: 'fragment' });
  });

  t.test('response_type=code token: unsupported_response_type', async (t) => {
    await expectErrorRedirect(t, lanyard, authorizeUrl(base, { ...goodParams('rt-ct'), response_type: 'code token' }),
      { error: 'unsupported_response_type', state: 'rt-ct', mode: 'fragment' });
  });

  t.test('two scope parameters: invalid_request', async (t) => {
    const p = await expectErrorRedirect(t, lanyard, authorizeUrl(base, { ...goodParams('dup-scope'), scope: ['openid', 'openid'] }),
      { error: 'invalid_request', state: 'dup-scope' });
    t.match(p.get('error_description'), /scope/);
  });

  t.test('two response_type parameters: invalid_request', async (t) => {
    await expectErrorRedirect(t, lanyard, authorizeUrl(base, { ...goodParams('dup-rt'), response_type: ['code', 'code'] }),
      { error: 'invalid_request', state: 'dup-rt' });
  });

  t.test('two state parameters: invalid_request', async (t) => {
    const res = await fetch(authorizeUrl(base, { ...goodParams('x'), state: ['one', 'two'] }), { redirect: 'manual' });
    t.equal(res.status, 303);
    const to = new URL(res.headers.get('location')!);
    t.equal(`${to.origin}${to.pathname}`, CALLBACK);
    t.equal(to.searchParams.get('error'), 'invalid_request');
    t.equal(to.searchParams.get('code'), null);
  });

  t.test('nonce of 1025 characters (SPEC: at most 1024): invalid_request', async (t) => {
    const p = await expectErrorRedirect(t, lanyard, authorizeUrl(base, { ...goodParams('long-nonce'), nonce: 'n'.repeat(1025) }),
      { error: 'invalid_request', state: 'long-nonce' });
    t.match(p.get('error_description'), /nonce/);
    const emoji = await expectErrorRedirect(t, lanyard, authorizeUrl(base, { ...goodParams('long-emoji'), nonce: '😀'.repeat(1025) }),
      { error: 'invalid_request', state: 'long-emoji' });
    t.match(emoji.get('error_description'), /nonce must be at most 1024 characters/, 'in emoji too');
  });

  t.test('nonce of exactly 1024 characters (after percent-decoding) comes back unmodified in the ID token', async (t) => {
    // Characters that need percent-encoding make the encoded form much longer than 1024: the limit is on the
    // value. Characters as a person counts them (code points): an emoji is one, though two UTF-16 units.
    const nonce = [...'aZ09-._~+/= %&?#é😀🦊'.repeat(64)].slice(0, 1024).join('');
    t.equal([...nonce].length, 1024, '1024 characters');
    t.ok(nonce.length > 1024, `${nonce.length} UTF-16 units`);
    const callback = await signIn(new HttpBrowser(), base, authorizeUrl(base, { ...goodParams('nonce-1024'), nonce }), TEACHER);
    t.equal(callback.searchParams.get('state'), 'nonce-1024');
    const code = callback.searchParams.get('code');
    t.ok(code, 'a code');
    const res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${DEMO_CLIENT.id}:${DEMO_CLIENT.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: code!, redirect_uri: CALLBACK }).toString(),
    });
    t.equal(res.status, 200);
    const { id_token: idToken } = await res.json() as { id_token: string };
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as { nonce?: string };
    t.equal(claims.nonce, nonce, 'nonce claim equals the decoded value sent');
  });

  t.test('unknown organisation: invalid_request', async (t) => {
    const p = await expectErrorRedirect(t, lanyard, authorizeUrl(base, { ...goodParams('org'), organisation: 'no-such-school' }),
      { error: 'invalid_request', state: 'org' });
    t.match(p.get('error_description'), /organisation/);
  });

  t.test('empty organisation is treated as omitted (RFC 6749 §3.1): the organisation picker', async (t) => {
    const browser = new HttpBrowser();
    const res = await browser.get(authorizeUrl(base, { ...goodParams('org-empty'), organisation: '' }));
    t.equal(res.status, 303);
    const to = location(res, base);
    t.match(to.pathname, /^\/interaction\/[\w-]+$/, 'the sign-in starts');
    const page = await (await browser.get(to)).text();
    t.notMatch(page, 'name="password"', 'no organisation chosen yet: the picker, not a password form');
  });

  t.test('response_type=id_token without nonce (OIDC Core 3.2.2.1: required): invalid_request, in the fragment', async (t) => {
    const p = await expectErrorRedirect(t, lanyard, authorizeUrl(base, { ...goodParams('idt'), response_type: 'id_token', nonce: undefined }),
      { error: 'invalid_request', state: 'idt', mode: 'fragment' });
    t.match(p.get('error_description'), /nonce/);
  });

  const garbage: [string, string][] = [
    ['a random _session cookie', '_session=Jx1Yq3c5wV9kT2rP8nL4mZ6hB0dF7gS'],
    ['a _session cookie with a forged signature', '_session=abc; _session.sig=Zm9yZ2Vk'],
    ['random _interaction cookies', '_interaction=doesnotexist; _interaction.sig=bad; _interaction_resume=nope; _interaction_resume.sig=bad'],
    ['a malformed cookie header', ';;==; _session; =value; _session=%E0%A4%A; a=b=c; "quoted"="x"; _session.sig=%%%'],
  ];
  for (const [name, cookie] of garbage) {
    t.test(`${name}: the sign-in still starts normally`, async (t) => {
      const browser = new HttpBrowser();
      const res = await browser.request(authorizeUrl(base, goodParams('cookies')), { headers: { cookie } });
      t.equal(res.status, 303, 'redirected, no 500');
      const to = location(res, base);
      t.match(to.pathname, /^\/interaction\/[\w-]+$/, 'to the login screen');
      const screen = await browser.get(to);
      t.equal(screen.status, 200, 'the login screen opens');
      t.match(await screen.text(), 'Demo App');
    });
  }

  t.test('garbage cookies do not break finishing a sign-in', async (t) => {
    const browser = new HttpBrowser();
    browser.cookies.set('_session', 'garbage');
    browser.cookies.set('_session.sig', 'garbage');
    const callback = await signIn(browser, base, authorizeUrl(base, goodParams('cookie-finish')), TEACHER);
    t.equal(`${callback.origin}${callback.pathname}`, CALLBACK);
    t.ok(callback.searchParams.get('code'), 'with a code');
  });

  t.test('an unknown interaction uid: the friendly "Sign-in expired" page', async (t) => {
    for (const [method, path] of [['GET', '/interaction/doesnotexist'], ['POST', '/interaction/doesnotexist/password'],
      ['POST', '/interaction/doesnotexist/cancel']] as const) {
      const res = await fetch(`${base}${path}`, {
        method,
        redirect: 'manual',
        ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'csrf=x&username=teacher&password=x' } : {}),
      });
      const page = await res.text();
      t.equal(res.status, 400, `${method} ${path}: 400`);
      t.match(res.headers.get('content-type'), /^text\/html/);
      t.match(page, '<h1>Sign-in expired</h1>');
      t.match(page, 'Error code: <code>sign_in_expired</code>');
      noStackTrace(t, page);
    }
  });

  t.test('a real interaction uid without its cookie (another browser): "Sign-in expired"', async (t) => {
    const { uid } = await passwordForm(lanyard, new HttpBrowser(), 'stolen-uid');
    const res = await new HttpBrowser().get(`${base}/interaction/${uid}?org=demo-school`);
    t.equal(res.status, 400);
    t.match(await res.text(), '<h1>Sign-in expired</h1>');
  });

  t.test('login form POST with a bad csrf token: 403, and the sign-in is not lost', async (t) => {
    const browser = new HttpBrowser();
    const form = await passwordForm(lanyard, browser, 'csrf');
    const other = await passwordForm(lanyard, new HttpBrowser(), 'csrf-other');
    t.not(other.csrf, form.csrf, 'tokens are per interaction');
    for (const [name, csrf] of [['a wrong token', 'not-the-token'], ['another interaction\'s token', other.csrf],
      ['an empty token', ''], ['no token', undefined]] as const) {
      const fields: Record<string, string> = { org: form.org, username: TEACHER.username, password: TEACHER.password };
      if (csrf !== undefined) fields.csrf = csrf;
      const res = await browser.post(`${base}/interaction/${form.uid}/password`, fields);
      const page = await res.text();
      t.equal(res.status, 403, `${name}: 403`);
      t.equal(res.headers.get('location'), null, `${name}: not signed in`);
      t.match(page, 'Error code: <code>invalid_form</code>');
      noStackTrace(t, page);
    }
    const res = await browser.post(`${base}/interaction/${form.uid}/password`, {
      csrf: form.csrf, org: form.org, username: TEACHER.username, password: TEACHER.password,
    });
    t.equal(res.status, 303, 'the right token still signs in');
    const callback = await followToApp(lanyard, browser, res);
    t.ok(callback.searchParams.get('code'), 'and the app gets its code');
  });

  t.test('cancel POST with a bad csrf token: 403', async (t) => {
    const browser = new HttpBrowser();
    const form = await passwordForm(lanyard, browser, 'cancel-csrf');
    const res = await browser.post(`${base}/interaction/${form.uid}/cancel`, { csrf: 'forged' });
    t.equal(res.status, 403);
    t.equal(res.headers.get('location'), null);
  });

  t.test('wrong password and unknown username: 401 with the same generic message', async (t) => {
    const browser = new HttpBrowser();
    const form = await passwordForm(lanyard, browser, 'bad-login');
    const attempt = async (username: string, password: string) => {
      const res = await browser.post(`${base}/interaction/${form.uid}/password`, { csrf: form.csrf, org: form.org, username, password });
      return { status: res.status, location: res.headers.get('location'), type: res.headers.get('content-type'), page: await res.text() };
    };
    const wrongPassword = await attempt(TEACHER.username, 'not-the-teacher-pass');
    const unknownUser = await attempt('nobody-by-this-name', 'not-the-teacher-pass');
    const emptyFields = await attempt('', '');
    for (const [name, r] of [['wrong password', wrongPassword], ['unknown username', unknownUser], ['empty fields', emptyFields]] as const) {
      t.equal(r.status, 401, `${name}: 401`);
      t.equal(r.location, null, `${name}: no redirect`);
      t.match(r.type, /^text\/html/, `${name}: HTML`);
      t.match(r.page, 'name="password"', `${name}: the form again, to retry`);
      t.notMatch(r.page, 'not-the-teacher-pass', `${name}: the password is not echoed`);
      noStackTrace(t, r.page);
    }
    t.ok(alertText(wrongPassword.page), 'an error message is shown');
    t.equal(alertText(unknownUser.page), alertText(wrongPassword.page), 'identical message for unknown user and wrong password');
    t.equal(alertText(emptyFields.page), alertText(wrongPassword.page), 'and for empty fields');
    t.notMatch(wrongPassword.page, /unknown|not found|no such|does not exist/i, 'does not say whether the user exists');
    // Everything but the echoed username is identical: nothing else tells the two cases apart.
    const strip = (page: string) => page.replace(/name="username" type="text" value="[^"]*"/, '');
    t.equal(strip(unknownUser.page), strip(wrongPassword.page), 'pages identical apart from the echoed username');

    const res = await browser.post(`${base}/interaction/${form.uid}/password`, {
      csrf: form.csrf, org: form.org, username: TEACHER.username, password: TEACHER.password,
    });
    t.equal(res.status, 303, 'the right password still works in the same interaction');
  });

  t.test('cancel: back to the callback with error=access_denied and the state', async (t) => {
    const browser = new HttpBrowser();
    const form = await passwordForm(lanyard, browser, 'cancel-me');
    const res = await browser.post(`${base}/interaction/${form.uid}/cancel`, { csrf: form.csrf });
    t.equal(res.status, 303);
    const to = await followToApp(lanyard, browser, res);
    t.equal(`${to.origin}${to.pathname}`, CALLBACK, 'at the registered callback');
    t.equal(to.searchParams.get('error'), 'access_denied');
    t.equal(to.searchParams.get('state'), 'cancel-me');
    t.equal(to.searchParams.get('code'), null, 'no code');
    const again = await browser.get(`${base}/interaction/${form.uid}`);
    t.equal(again.status, 400, 'the interaction is finished');
  });
});

t.test('a sign-in left open longer than the interaction lifetime: "Sign-in expired", no sign-in', async (t) => {
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock });
  const browser = new HttpBrowser();
  const form = await passwordForm(lanyard, browser, 'slow');
  clock.advance(TTL.Interaction * 1000 + 1000);

  const screen = await browser.get(`${lanyard.url}/interaction/${form.uid}?org=demo-school`);
  t.equal(screen.status, 400);
  t.match(await screen.text(), '<h1>Sign-in expired</h1>');
  const res = await browser.post(`${lanyard.url}/interaction/${form.uid}/password`, {
    csrf: form.csrf, org: form.org, username: TEACHER.username, password: TEACHER.password,
  });
  const page = await res.text();
  t.equal(res.status, 400, 'the right password no longer signs in');
  t.equal(res.headers.get('location'), null, 'no redirect');
  t.match(page, '<h1>Sign-in expired</h1>');
  noStackTrace(t, page);
});
