import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { writeConfig } from '../helpers/config-file.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { DEMO_CLIENT } from '../helpers/relying-party.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';

/**
 * Bad input at POST /oauth/token. RFC 6749 §5.2: JSON errors, 400 with `error`, except failed client
 * authentication: 401 invalid_client with `WWW-Authenticate: Basic` (SPEC: Authentication 2, HTTP Basic
 * only, never a secret in the URL). A refused request loses nothing: the code it carried still works.
 */

/** The assertions the helpers below use (what every tap test has). */
type Test = Pick<typeof t, 'equal' | 'match' | 'ok' | 'type'>;

const CALLBACK = DEMO_CLIENT.redirectUri;
const SECOND_SECRET = 'demo-app-second-secret';
/** Needs form-urlencoding inside Basic (RFC 6749 §2.3.1): a colon, a plus, a slash, a percent. */
const THIRD_SECRET = 'third:se+cret/50%=&ok';
const OTHER = { id: 'other-app', secret: 'other-app-secret' };

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const DEMO_AUTH = basic(DEMO_CLIENT.id, DEMO_CLIENT.secret);

/** Two clients on the same callback, the first with three secrets (plaintext: development only). */
const twoClientConfig = () => writeConfig((config) => {
  const demo = config.clients.find((c) => c.client_id === DEMO_CLIENT.id)!;
  demo.secrets = [DEMO_CLIENT.secret, SECOND_SECRET, THIRD_SECRET];
  config.clients.push({
    client_id: OTHER.id,
    name: 'Other App',
    secrets: [OTHER.secret],
    redirect_uris: [CALLBACK],
    default_scopes: ['openid'],
  });
});

/** Signs the teacher in with a hand-built request (no PKCE) and returns the code from the callback. */
async function getCode(lanyard: Lanyard, state = 'st'): Promise<string> {
  const q = new URLSearchParams({
    client_id: DEMO_CLIENT.id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state, nonce: `n-${state}`,
  });
  const callback = await signIn(new HttpBrowser(), lanyard.url, `${lanyard.url}/oauth/authorize?${q.toString()}`, TEACHER);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback.href}`);
  return code;
}

const codeForm = (code: string, redirectUri = CALLBACK) =>
  new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }).toString();

interface Call {
  /** The Authorization header; the demo client's Basic credentials unless null. */
  auth?: string | null;
  body?: string | ReadableStream<Uint8Array>;
  query?: string;
  /** Form-urlencoded when there is a body, none otherwise, unless given. */
  contentType?: string | null;
}

interface Answer { status: number; headers: Headers; json: Record<string, unknown> }

async function postToken(lanyard: Lanyard, call: Call): Promise<Answer> {
  const headers: Record<string, string> = {};
  const auth = call.auth === undefined ? DEMO_AUTH : call.auth;
  if (auth !== null) headers.authorization = auth;
  const type = call.contentType === undefined ? (call.body !== undefined ? 'application/x-www-form-urlencoded' : null) : call.contentType;
  if (type) headers['content-type'] = type;
  const res = await fetch(`${lanyard.url}/oauth/token${call.query ? `?${call.query}` : ''}`, {
    method: 'POST', headers, body: call.body, redirect: 'manual', ...(call.body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await res.text();
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { notJson: text.slice(0, 200) };
  }
  return { status: res.status, headers: res.headers, json };
}

/** An RFC 6749 §5.2 error response: JSON, not cached, the exact status and code, 401s with WWW-Authenticate. */
function expectError(t: Test, lanyard: Lanyard, res: Answer, status: number, error: string) {
  t.equal(res.status, status, `status ${status}`);
  t.equal(res.json.error, error, `error=${error}`);
  t.match(res.headers.get('content-type'), /^application\/json/, 'a JSON body');
  t.equal(res.headers.get('cache-control'), 'no-store', 'not cached');
  t.equal(res.json.access_token, undefined, 'no access_token');
  if (status === 401) {
    t.match(res.headers.get('www-authenticate'), new RegExp(`^Basic realm="${lanyard.url}", error="invalid_client"`),
      'WWW-Authenticate: Basic, realm is the issuer');
  } else {
    t.equal(res.headers.get('www-authenticate'), null, 'no WWW-Authenticate on a 400');
  }
}

/** A successful token response (SPEC: Token response). */
function expectTokens(t: Test, res: Answer) {
  t.equal(res.status, 200, 'status 200');
  t.equal(res.json.token_type, 'Bearer', 'token_type Bearer');
  t.type(res.json.access_token, 'string', 'access_token');
  t.type(res.json.refresh_token, 'string', 'refresh_token');
  t.match(res.json.id_token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'id_token is a JWT');
  t.equal(res.json.expires_in, 86400, 'access token valid 24 hours');
  t.equal(res.headers.get('cache-control'), 'no-store', 'not cached');
  t.equal(res.headers.get('pragma'), 'no-cache', 'Pragma: no-cache (RFC 6749 §5.1)');
}

async function userinfo(lanyard: Lanyard, accessToken: string) {
  const res = await fetch(`${lanyard.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: res.status, wwwAuthenticate: res.headers.get('www-authenticate'), json: await res.json() as Record<string, unknown> };
}

/** "Nothing lost": after a refused request, the same code still exchanges normally. */
async function codeStillWorks(t: Test, lanyard: Lanyard, code: string) {
  const res = await postToken(lanyard, { body: codeForm(code) });
  t.equal(res.status, 200, 'the refused request did not use up the code');
  t.type(res.json.access_token, 'string');
}

t.test('POST /oauth/token refuses bad input (two clients, several secrets)', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: twoClientConfig() } });

  t.test('wrong secret: 401 invalid_client, WWW-Authenticate: Basic', async (t) => {
    const code = await getCode(lanyard);
    expectError(t, lanyard, await postToken(lanyard, { auth: basic(DEMO_CLIENT.id, 'not-the-secret'), body: codeForm(code) }), 401, 'invalid_client');
    expectError(t, lanyard, await postToken(lanyard, { auth: basic(DEMO_CLIENT.id, OTHER.secret) , body: codeForm(code) }), 401, 'invalid_client');
    await codeStillWorks(t, lanyard, code);
  });

  t.test('unknown client: 401 invalid_client', async (t) => {
    const code = await getCode(lanyard);
    expectError(t, lanyard, await postToken(lanyard, { auth: basic('no-such-app', DEMO_CLIENT.secret), body: codeForm(code) }), 401, 'invalid_client');
    await codeStillWorks(t, lanyard, code);
  });

  const malformed: [string, string][] = [
    ['Basic !!!', 'Basic !!!'],
    ['Basic without credentials', 'Basic'],
    ['Basic base64 without a colon', `Basic ${Buffer.from('demo-app').toString('base64')}`],
    ['Basic with an empty client_id', `Basic ${Buffer.from(`:${DEMO_CLIENT.secret}`).toString('base64')}`],
    ['Basic with an empty secret', `Basic ${Buffer.from('demo-app:').toString('base64')}`],
    ['Basic with a bad percent-encoding', `Basic ${Buffer.from('demo-app:%zz').toString('base64')}`],
    ['Basic followed by more text', `${DEMO_AUTH} extra`],
    ['Bearer x', 'Bearer x'],
    ['Digest', 'Digest username="demo-app", realm="x"'],
  ];
  t.test('a malformed Authorization header: 401 invalid_client + WWW-Authenticate', async (t) => {
    const code = await getCode(lanyard);
    for (const [name, header] of malformed) {
      await t.test(name, async (t) => {
        expectError(t, lanyard, await postToken(lanyard, { auth: header, body: codeForm(code) }), 401, 'invalid_client');
      });
    }
    await codeStillWorks(t, lanyard, code);
  });

  t.test('no client authentication at all: 401 invalid_client (RFC 6749 §5.2)', async (t) => {
    const code = await getCode(lanyard);
    expectError(t, lanyard, await postToken(lanyard, { auth: null, body: codeForm(code) }), 401, 'invalid_client');
    expectError(t, lanyard, await postToken(lanyard, { auth: null, body: `${codeForm(code)}&client_id=${DEMO_CLIENT.id}` }), 401, 'invalid_client');
    await codeStillWorks(t, lanyard, code);
  });

  t.test('client_secret in the URL query: 400 invalid_request (SPEC: never a secret in the URL)', async (t) => {
    const code = await getCode(lanyard);
    expectError(t, lanyard, await postToken(lanyard, { query: `client_secret=${DEMO_CLIENT.secret}`, body: codeForm(code) }), 400, 'invalid_request');
    expectError(t, lanyard, await postToken(lanyard, {
      auth: null, query: `client_id=${DEMO_CLIENT.id}&client_secret=${DEMO_CLIENT.secret}`, body: codeForm(code),
    }), 400, 'invalid_request');
    expectError(t, lanyard, await postToken(lanyard, { query: 'client_assertion=eyJ.eyJ.sig', body: codeForm(code) }), 400, 'invalid_request');
    await codeStillWorks(t, lanyard, code);
  });

  t.test('client_secret in the form body without Authorization (client_secret_post): 401 invalid_client', async (t) => {
    const code = await getCode(lanyard);
    const body = `${codeForm(code)}&client_id=${DEMO_CLIENT.id}&client_secret=${DEMO_CLIENT.secret}`;
    expectError(t, lanyard, await postToken(lanyard, { auth: null, body }), 401, 'invalid_client');
    await codeStillWorks(t, lanyard, code);
  });

  t.test('Basic and a client_secret in the body: 400 invalid_request (RFC 6749 §2.3, one method)', async (t) => {
    const code = await getCode(lanyard);
    const res = await postToken(lanyard, { body: `${codeForm(code)}&client_id=${DEMO_CLIENT.id}&client_secret=${DEMO_CLIENT.secret}` });
    expectError(t, lanyard, res, 400, 'invalid_request');
    expectError(t, lanyard, await postToken(lanyard, { body: `${codeForm(code)}&client_secret=wrong-one` }), 400, 'invalid_request');
    await codeStillWorks(t, lanyard, code);
  });

  t.test('replayed code: invalid_grant, and the tokens from the first exchange are revoked', async (t) => {
    const code = await getCode(lanyard);
    const first = await postToken(lanyard, { body: codeForm(code) });
    expectTokens(t, first);
    const accessToken = first.json.access_token as string;
    t.equal((await userinfo(lanyard, accessToken)).status, 200, 'the access token works before the replay');

    expectError(t, lanyard, await postToken(lanyard, { body: codeForm(code) }), 400, 'invalid_grant');

    const after = await userinfo(lanyard, accessToken);
    t.equal(after.status, 401, 'the first access token is revoked');
    t.equal(after.json.error, 'invalid_token');
    t.match(after.wwwAuthenticate, /^Bearer /, 'userinfo 401 names Bearer');
    const refresh = await postToken(lanyard, {
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.json.refresh_token as string }).toString(),
    });
    expectError(t, lanyard, refresh, 400, 'invalid_grant');
    t.equal(refresh.json.access_token, undefined, 'the first refresh token is revoked too');
  });

  // End to end over HTTP. One process on SQLite rarely interleaves two exchanges; the interleaving itself
  // (both requests found the code unconsumed) is pinned in test/unit/adapters/oidc-adapter.test.ts.
  t.test('the same code or refresh token sent several times at the same moment: exactly one exchange succeeds', async (t) => {
    const code = await getCode(lanyard);
    const exchanges = await Promise.all(Array.from({ length: 6 }, () => postToken(lanyard, { body: codeForm(code) })));
    const won = exchanges.filter((r) => r.status === 200);
    t.equal(won.length, 1, `one code exchange won (statuses ${exchanges.map((r) => r.status).join(', ')})`);
    for (const lost of exchanges.filter((r) => r.status !== 200)) expectError(t, lanyard, lost, 400, 'invalid_grant');

    const fresh = await postToken(lanyard, { body: codeForm(await getCode(lanyard, 'rt')) });
    expectTokens(t, fresh);
    const refreshForm = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: fresh.json.refresh_token as string }).toString();
    const refreshes = await Promise.all(Array.from({ length: 6 }, () => postToken(lanyard, { body: refreshForm })));
    t.equal(refreshes.filter((r) => r.status === 200).length <= 1, true,
      `at most one refresh won (statuses ${refreshes.map((r) => r.status).join(', ')})`);
    t.equal(refreshes.filter((r) => r.status === 200).length + refreshes.filter((r) => r.json.error === 'invalid_grant').length, 6,
      'every other one is invalid_grant');
  });

  t.test('a code presented by another client: invalid_grant, and the rightful client can still use it', async (t) => {
    const code = await getCode(lanyard);
    expectError(t, lanyard, await postToken(lanyard, { auth: basic(OTHER.id, OTHER.secret), body: codeForm(code) }), 400, 'invalid_grant');
    await codeStillWorks(t, lanyard, code);
  });

  t.test('the other client authenticates with its own secret (the config is what the tests think it is)', async (t) => {
    const res = await postToken(lanyard, { auth: basic(OTHER.id, OTHER.secret), body: 'grant_type=authorization_code&code=unknown-code&redirect_uri=x' });
    expectError(t, lanyard, res, 400, 'invalid_grant');
  });

  const otherRedirects: [string, string][] = [
    ['a trailing slash', `${CALLBACK}/`],
    ['another host', 'http://evil.example/callback'],
    ['another port', 'http://localhost:8081/callback'],
    ['an extra query string', `${CALLBACK}?x=1`],
  ];
  for (const [name, redirectUri] of otherRedirects) {
    t.test(`redirect_uri with ${name} at the token endpoint: invalid_grant`, async (t) => {
      const code = await getCode(lanyard);
      expectError(t, lanyard, await postToken(lanyard, { body: codeForm(code, redirectUri) }), 400, 'invalid_grant');
      await codeStillWorks(t, lanyard, code);
    });
  }

  t.test('redirect_uri missing at the token endpoint (SPEC: required): invalid_request', async (t) => {
    const code = await getCode(lanyard);
    const res = await postToken(lanyard, { body: new URLSearchParams({ grant_type: 'authorization_code', code }).toString() });
    expectError(t, lanyard, res, 400, 'invalid_request');
    t.match(res.json.error_description, /redirect_uri/);
    await codeStillWorks(t, lanyard, code);
  });

  t.test('code missing: invalid_request; an unknown code: invalid_grant', async (t) => {
    expectError(t, lanyard, await postToken(lanyard, { body: `grant_type=authorization_code&redirect_uri=${encodeURIComponent(CALLBACK)}` }), 400, 'invalid_request');
    expectError(t, lanyard, await postToken(lanyard, { body: codeForm('no-such-code') }), 400, 'invalid_grant');
  });

  t.test('missing grant_type: invalid_request', async (t) => {
    const code = await getCode(lanyard);
    const form = new URLSearchParams({ code, redirect_uri: CALLBACK }).toString();
    const res = await postToken(lanyard, { body: form });
    expectError(t, lanyard, res, 400, 'invalid_request');
    t.match(res.json.error_description, /grant_type/);
    expectError(t, lanyard, await postToken(lanyard, { body: `grant_type=&${form}` }), 400, 'invalid_request');
    expectError(t, lanyard, await postToken(lanyard, {}), 400, 'invalid_request');
    await codeStillWorks(t, lanyard, code);
  });

  for (const grantType of ['password', 'client_credentials', 'implicit', 'AUTHORIZATION_CODE', 'urn:ietf:params:oauth:grant-type:device_code',
    'urn:ietf:params:oauth:grant-type:jwt-bearer', 'urn:ietf:params:oauth:grant-type:token-exchange']) {
    t.test(`grant_type=${grantType}: unsupported_grant_type`, async (t) => {
      const res = await postToken(lanyard, { body: `grant_type=${encodeURIComponent(grantType)}&username=teacher&password=teacher-pass&scope=openid` });
      expectError(t, lanyard, res, 400, 'unsupported_grant_type');
    });
  }

  t.test('a JSON body: 400 invalid_request (form-urlencoded only)', async (t) => {
    const code = await getCode(lanyard);
    const res = await postToken(lanyard, {
      contentType: 'application/json', body: JSON.stringify({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK }),
    });
    expectError(t, lanyard, res, 400, 'invalid_request');
    await codeStillWorks(t, lanyard, code);
  });

  t.test('a 100 KB body: 413 JSON invalid_request, and the service carries on', async (t) => {
    const code = await getCode(lanyard);
    const padding = `&padding=${'a'.repeat(100 * 1024)}`;
    expectError(t, lanyard, await postToken(lanyard, { body: `${codeForm(code)}${padding}` }), 413, 'invalid_request');
    expectError(t, lanyard, await postToken(lanyard, { query: codeForm(code), body: padding.slice(1) }), 413, 'invalid_request');
    const chunks = [new TextEncoder().encode(codeForm(code)), ...Array.from({ length: 10 }, () => new TextEncoder().encode(padding.slice(0, 10 * 1024)))];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    expectError(t, lanyard, await postToken(lanyard, { body: stream }), 413, 'invalid_request');
    t.equal((await fetch(`${lanyard.url}/healthz`)).status, 200, 'still serving');
    await codeStillWorks(t, lanyard, code);
  });

  t.test('parameters as URL parameters (SPEC: POST /oauth/token) succeed', async (t) => {
    const viaUrl = await postToken(lanyard, { query: codeForm(await getCode(lanyard)) });
    expectTokens(t, viaUrl);
    t.equal((await userinfo(lanyard, viaUrl.json.access_token as string)).status, 200, 'the access token works');

    expectTokens(t, await postToken(lanyard, { query: codeForm(await getCode(lanyard)), body: '' }));

    // Split between the URL and the body, each parameter once.
    const code = await getCode(lanyard);
    expectTokens(t, await postToken(lanyard, {
      query: `grant_type=authorization_code&redirect_uri=${encodeURIComponent(CALLBACK)}`, body: `code=${encodeURIComponent(code)}`,
    }));

    const refreshed = await postToken(lanyard, {
      query: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: viaUrl.json.refresh_token as string }).toString(),
    });
    expectTokens(t, refreshed);
    t.not(refreshed.json.access_token, viaUrl.json.access_token, 'a new access token from the refresh');
  });

  t.test('the same parameter in the URL and the body: invalid_request', async (t) => {
    const code = await getCode(lanyard);
    for (const [name, query] of [['grant_type', 'grant_type=authorization_code'], ['code', `code=${encodeURIComponent(code)}`],
      ['redirect_uri', `redirect_uri=${encodeURIComponent(CALLBACK)}`]]) {
      const res = await postToken(lanyard, { query, body: codeForm(code) });
      expectError(t, lanyard, res, 400, 'invalid_request');
      t.match(res.json.error_description, name!, `names ${name}`);
    }
    expectError(t, lanyard, await postToken(lanyard, { query: 'grant_type=refresh_token', body: codeForm(code) }), 400, 'invalid_request');
    await codeStillWorks(t, lanyard, code);
  });

  t.test('a client with several secrets authenticates with each of them', async (t) => {
    for (const secret of [DEMO_CLIENT.secret, SECOND_SECRET, THIRD_SECRET]) {
      const res = await postToken(lanyard, { auth: basic(DEMO_CLIENT.id, secret), body: codeForm(await getCode(lanyard)) });
      expectTokens(t, res);
    }
    // Only those: another client's secret, or two of them glued together, are refused.
    const code = await getCode(lanyard);
    for (const wrong of [OTHER.secret, `${DEMO_CLIENT.secret}${SECOND_SECRET}`, SECOND_SECRET.toUpperCase(), THIRD_SECRET.slice(0, -1)]) {
      expectError(t, lanyard, await postToken(lanyard, { auth: basic(DEMO_CLIENT.id, wrong), body: codeForm(code) }), 401, 'invalid_client');
    }
    await codeStillWorks(t, lanyard, code);
  });

  t.test('the Authorization header as RFC 9110 §11.4 spells it: the scheme in any case, one or more spaces', async (t) => {
    const credentials = DEMO_AUTH.slice('Basic '.length);
    for (const header of [`basic ${credentials}`, `BASIC ${credentials}`, `Basic   ${credentials}`]) {
      t.equal((await postToken(lanyard, { auth: header, body: codeForm(await getCode(lanyard)) })).status, 200, `${header.slice(0, 8)}…: accepted`);
    }
    // And an access token, spelled so, opens userinfo.
    const token = (await postToken(lanyard, { body: codeForm(await getCode(lanyard)) })).json.access_token as string;
    for (const scheme of ['bearer ', 'BEARER ', 'Bearer   ']) {
      const info = await fetch(`${lanyard.url}/oauth/userinfo`, { headers: { authorization: `${scheme}${token}` } });
      t.equal(info.status, 200, `userinfo: "${scheme}" then the token`);
    }
  });

  t.test('a secret sent without form-urlencoding, as SPEC writes Basic (base64(client_id:client_secret)), works too', async (t) => {
    const literal = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    // A `+`, a `/`, a `%`, a `:` and a `&` as they are: decoded as RFC 6749 §2.3.1 says, it would be another secret.
    expectTokens(t, await postToken(lanyard, { auth: literal(DEMO_CLIENT.id, THIRD_SECRET), body: codeForm(await getCode(lanyard)) }));
    const code = await getCode(lanyard);
    for (const wrong of [THIRD_SECRET.replace('+', ' '), THIRD_SECRET.replace('%', '%25')]) {
      expectError(t, lanyard, await postToken(lanyard, { auth: literal(DEMO_CLIENT.id, wrong), body: codeForm(code) }), 401, 'invalid_client');
    }
    await codeStillWorks(t, lanyard, code);
  });
});

t.test('authorization codes are valid ten minutes (SPEC: Limits)', async (t) => {
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock });

  t.test('just under ten minutes: the code still works', async (t) => {
    const code = await getCode(lanyard, 'fresh');
    clock.advance(10 * 60_000 - 1_000);
    expectTokens(t, await postToken(lanyard, { body: codeForm(code) }));
  });

  t.test('ten minutes and one second: invalid_grant', async (t) => {
    const code = await getCode(lanyard, 'stale');
    clock.advance(10 * 60_000 + 1_000);
    expectError(t, lanyard, await postToken(lanyard, { body: codeForm(code) }), 400, 'invalid_grant');
  });
});
