import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { ManualClock } from '../../src/clock.js';
import { MAX_INTERACTION_BYTES, PARAM_MAX_LENGTH, STATE_MAX_LENGTH } from '../../src/provider/authorization-params.js';
import { TTL } from '../../src/provider/ttl.js';
import { HttpBrowser, hiddenField, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { DEMO_CLIENT } from '../helpers/relying-party.js';
import { TEACHER } from '../helpers/sign-in.js';

/**
 * What one interaction may hold, and for how long (docs/security.md → Rate limits): every parameter kept in it has a
 * cap (oversize is `invalid_request`, sent back to the app once client and redirect_uri are valid), so an
 * interaction has a known maximum size; and a sign-in that is never finished is gone after 15 minutes,
 * while a slow child who finishes in time still signs in.
 */

const CALLBACK = DEMO_CLIENT.redirectUri;
const base = (state: string): Record<string, string> => ({
  client_id: DEMO_CLIENT.id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state,
});
const authorizeUrl = (issuer: string, params: Record<string, string>) => `${issuer}/oauth/authorize?${new URLSearchParams(params)}`;

/** Payloads of the stored interactions, with their size in bytes (not characters). */
function interactions(lanyard: Lanyard): { bytes: number; payload: string }[] {
  const db = new Database(join(lanyard.dir, 'lanyard.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT length(CAST(payload AS BLOB)) AS bytes, payload FROM oidc_records WHERE model = 'Interaction'")
      .all() as { bytes: number; payload: string }[];
  } finally {
    db.close();
  }
}

/** An error sent back to the registered callback, nothing stored. */
async function expectInvalidRequest(t: Test, lanyard: Lanyard, params: Record<string, string>, description: RegExp) {
  const before = interactions(lanyard).length;
  const res = await fetch(authorizeUrl(lanyard.url, params), { redirect: 'manual' });
  await res.text();
  t.equal(res.status, 303, 'redirected');
  const to = new URL(res.headers.get('location') ?? 'about:blank');
  t.equal(`${to.origin}${to.pathname}`, CALLBACK, 'to the registered callback');
  t.equal(to.searchParams.get('error'), 'invalid_request', 'error=invalid_request');
  t.match(to.searchParams.get('error_description'), description, 'says which parameter');
  t.equal(to.searchParams.get('code'), null, 'no code');
  t.equal(interactions(lanyard).length, before, 'nothing stored');
}

t.test('authorization parameters have caps', async (t) => {
  const lanyard = await startLanyard(t);

  t.test(`state of ${STATE_MAX_LENGTH} characters starts a sign-in; one more is invalid_request`, async (t) => {
    t.equal(STATE_MAX_LENGTH, 2048, 'the documented maximum');
    const ok = await fetch(authorizeUrl(lanyard.url, base('s'.repeat(2048))), { redirect: 'manual' });
    await ok.text();
    t.equal(ok.status, 303);
    t.match(ok.headers.get('location'), /^\/interaction\//, 'to the sign-in screens');
    const state = 's'.repeat(2049);
    await expectInvalidRequest(t, lanyard, base(state), /^state must be at most 2048 characters$/);
    const res = await fetch(authorizeUrl(lanyard.url, base(state)), { redirect: 'manual' });
    t.equal(new URL(res.headers.get('location')!).searchParams.get('state'), state, 'the state comes back, as RFC 6749 §4.1.2.1 asks');
  });

  t.test('state with a control character: invalid_request', async (t) => {
    await expectInvalidRequest(t, lanyard, base('a\u0000b'), /state must not contain control characters/);
  });

  const oversize: [string, string][] = [
    ['nonce', 'n'.repeat(1025)],
    ['login_hint', `${'l'.repeat(250)}@x.example`],
    ['ui_locales', 'en '.repeat(43)],
    ['claims_locales', 'en '.repeat(43)],
    ['acr_values', 'a'.repeat(257)],
    ['display', 'p'.repeat(17)],
    ['max_age', '00000000005'],
    // Distinct tokens: oidc-provider drops repeated ones before the cap is checked.
    ['scope', `openid ${Array.from({ length: 150 }, (_, i) => `api:s${i}`).join(' ')}`],
    ['organisation', 'x'.repeat(65)],
  ];
  for (const [name, value] of oversize) {
    t.test(`${name} over its cap (${PARAM_MAX_LENGTH[name as keyof typeof PARAM_MAX_LENGTH]}): invalid_request`, async (t) => {
      t.ok(value.length > PARAM_MAX_LENGTH[name as keyof typeof PARAM_MAX_LENGTH], 'the value is over the cap');
      await expectInvalidRequest(t, lanyard, { ...base(`big-${name}`), [name]: value }, new RegExp(`^${name} must be at most`));
    });
  }

  t.test(`an interaction with every parameter at its cap stays under MAX_INTERACTION_BYTES (${MAX_INTERACTION_BYTES})`, async (t) => {
    // A URL holds at most 16 KiB (Node's header limit), so the caps cannot all be filled with 3-byte
    // characters (9 bytes each, percent-encoded); `"` costs 3 bytes of URL and 2 of stored JSON.
    const wide = (n: number) => '"'.repeat(n);
    const params = {
      ...base(wide(PARAM_MAX_LENGTH.state)),
      scope: `openid ${Array.from({ length: 200 }, (_, i) => `scope-${i}`).join(' ')}`.slice(0, PARAM_MAX_LENGTH.scope).replace(/ \S*$/, ''),
      nonce: wide(PARAM_MAX_LENGTH.nonce),
      login_hint: '€'.repeat(PARAM_MAX_LENGTH.login_hint), // stored twice (the prompt details echo it)
      ui_locales: wide(PARAM_MAX_LENGTH.ui_locales),
      claims_locales: wide(PARAM_MAX_LENGTH.claims_locales),
      acr_values: wide(PARAM_MAX_LENGTH.acr_values),
      display: wide(PARAM_MAX_LENGTH.display),
      max_age: '0000000005',
      code_challenge: 'c'.repeat(PARAM_MAX_LENGTH.code_challenge),
      code_challenge_method: 'S256',
      prompt: 'login consent',
      organisation: 'demo-school',
    };
    const before = interactions(lanyard).length;
    const res = await fetch(authorizeUrl(lanyard.url, params), { redirect: 'manual' });
    await res.text();
    t.equal(res.status, 303);
    t.match(res.headers.get('location'), /^\/interaction\//, 'accepted: a sign-in starts');
    const stored = interactions(lanyard);
    t.equal(stored.length, before + 1, 'one interaction stored');
    const biggest = Math.max(...stored.map((s) => s.bytes));
    t.ok(biggest > 10_000, `it is a big one (${biggest} bytes)`);
    t.ok(biggest <= MAX_INTERACTION_BYTES, `${biggest} ≤ ${MAX_INTERACTION_BYTES} bytes`);
    t.equal(MAX_INTERACTION_BYTES, 32_884, 'the maximum the README gives');
  });

  t.test('an ordinary sign-in request stores under 1 KiB', async (t) => {
    const before = new Set(interactions(lanyard).map((s) => s.payload));
    const res = await fetch(authorizeUrl(lanyard.url, { ...base('ordinary-state-value-0123456789'), nonce: 'n'.repeat(43) }), { redirect: 'manual' });
    await res.text();
    const added = interactions(lanyard).filter((s) => !before.has(s.payload));
    t.equal(added.length, 1);
    t.ok(added[0]!.bytes < 1024, `${added[0]!.bytes} bytes`);
  });
});

/** Opens the password form of a new sign-in; returns what the form posts. */
async function passwordForm(lanyard: Lanyard, browser: HttpBrowser, state: string) {
  const res = await browser.get(authorizeUrl(lanyard.url, base(state)));
  await res.text();
  const uid = location(res, lanyard.url).pathname.split('/')[2]!;
  const page = await (await browser.get(`${lanyard.url}/interaction/${uid}/password?org=demo-school`)).text();
  return { uid, csrf: hiddenField(page, 'csrf'), org: hiddenField(page, 'org') };
}

t.test('an unfinished sign-in lives 15 minutes: a slow child still signs in, a later one starts again', async (t) => {
  t.equal(TTL.Interaction, 15 * 60, 'the documented lifetime');
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock });

  t.test('14½ minutes on the password screen: the right password still signs in', async (t) => {
    const browser = new HttpBrowser();
    const form = await passwordForm(lanyard, browser, 'slow-but-in-time');
    clock.advance(TTL.Interaction * 1000 - 30_000);
    const res = await browser.post(`${lanyard.url}/interaction/${form.uid}/password`, {
      csrf: form.csrf, org: form.org, username: TEACHER.username, password: TEACHER.password,
    });
    await res.text();
    t.equal(res.status, 303, 'signed in');
    let to = location(res, lanyard.url);
    for (let hops = 0; to.origin === lanyard.url && hops < 5; hops += 1) {
      const next = await browser.get(to);
      await next.text();
      to = location(next, lanyard.url);
    }
    t.equal(`${to.origin}${to.pathname}`, CALLBACK, 'back at the app');
    t.ok(to.searchParams.get('code'), 'with a code');
    t.equal(to.searchParams.get('state'), 'slow-but-in-time');
  });

  t.test('15 minutes and a second: "Sign-in expired", and the record is gone from the store', async (t) => {
    const browser = new HttpBrowser();
    const form = await passwordForm(lanyard, browser, 'too-slow');
    t.ok(interactions(lanyard).some((s) => s.payload.includes('too-slow')), 'stored while the sign-in is open');
    clock.advance(TTL.Interaction * 1000 + 1000);
    const screen = await browser.get(`${lanyard.url}/interaction/${form.uid}/password?org=demo-school`);
    t.equal(screen.status, 400);
    t.match(await screen.text(), '<h1>Sign-in expired</h1>', 'the page says to start again');
    const res = await browser.post(`${lanyard.url}/interaction/${form.uid}/password`, {
      csrf: form.csrf, org: form.org, username: TEACHER.username, password: TEACHER.password,
    });
    t.equal(res.status, 400, 'the right password no longer signs in');
    t.match(await res.text(), '<h1>Sign-in expired</h1>');
    await lanyard.store.sweep();
    t.notOk(interactions(lanyard).some((s) => s.payload.includes('too-slow')), 'swept from the store');
  });
});
