import t from 'tap';
import { Secret, TOTP } from 'otpauth';
import { ManualClock, systemClock } from '../../src/clock.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { DeveloperAccounts } from '../../src/developer/developer-accounts.js';
import { hashRecoveryCode } from '../../src/accounts/recovery-codes.js';
import { newTotpSecret, totpCode } from '../../src/accounts/totp.js';
import { lanyard as cli } from '../helpers/cli.js';
import { writeConfig } from '../helpers/config-file.js';
import {
  acceptInvitation, createDeveloper, csrfOf, DEVELOPER_PASSWORD, enableDeveloperTotp, formCsrf, freshTotpCode, inviteDeveloper, signInDeveloper,
} from '../helpers/developer.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';

/** The cookie's Set-Cookie line on a response. */
const setCookie = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
/** The one error message of a form page (the generic sign-in errors are compared with it). */
const errorOf = (page: string) => /role="alert" id="form-error">([^<]*)</.exec(page)?.[1];
const cliEnv = (l: Lanyard) => ({ LANYARD_STORE: `sqlite:${l.dir}/lanyard.db`, PORT: new URL(l.url).port });

/** GET /developer/account with exactly this session cookie value (not the browser's jar). */
const accountWith = (l: Lanyard, session: string) =>
  fetch(`${l.url}/developer/account`, { headers: { cookie: `lanyard_developer=${session}` }, redirect: 'manual' });

t.test('an invited developer accepts, turns on TOTP, and signs in with it; codes are single use', async (t) => {
  const l = await startLanyard(t);
  const email = 'Ada.Dev@Example.org';

  const invited = await cli(['developers', 'invite', email], cliEnv(l));
  t.equal(invited.code, 0, invited.stderr);
  const link = new RegExp(`${l.url}/developer/invitations/([A-Za-z0-9_-]{43})`).exec(invited.stdout);
  t.ok(link, 'the link is printed');
  const expiry = /until (\S+)\)/.exec(invited.stdout)?.[1];
  t.ok(expiry && Math.abs(Date.parse(expiry) - Date.now() - 7 * 24 * 3600e3) < 60e3, 'valid 7 days');
  t.match(invited.stdout, /ada\.dev@example\.org/, 'the email, lower-cased');
  t.equal(invited.stderr, '');

  const browser = new HttpBrowser();
  const form = await browser.get(link![0]);
  t.equal(form.status, 200);
  const page = await form.text();
  t.match(page.replace(/<wbr>|<\/?span[^>]*>/g, ''), 'ada.dev@example.org', 'the address invited (breaking only after its @ or a dot)');
  const short = await browser.post(link![0], { csrf: csrfOf(page), displayName: 'Ada', password: 'short', confirm: 'short' });
  t.equal(short.status, 400, 'a short password is refused');
  t.match(await short.text(), /at least 15 characters/);
  t.equal(await l.store.findDeveloperByEmail('ada.dev@example.org'), undefined, 'no account yet');

  const accepted = await acceptInvitation(browser, link![0], 'Ada Lovelace', DEVELOPER_PASSWORD);
  t.equal(accepted.status, 303);
  t.equal(location(accepted, l.url).pathname, '/developer/account');
  const cookie = setCookie(accepted, 'lanyard_developer')!;
  t.match(cookie, /; HttpOnly/);
  t.match(cookie, /; SameSite=Lax/);
  t.match(cookie, /; Path=\/developer(;|$)/);
  t.notMatch(cookie, /Secure/, 'not Secure on http');
  const account = await l.store.findDeveloperByEmail('ada.dev@example.org');
  t.equal(account?.displayName, 'Ada Lovelace');
  t.match(account?.passwordHash, /^\$argon2id\$/);

  const again = await new HttpBrowser().get(link![0]);
  t.equal(again.status, 410, 'the link works once');
  t.match(await again.text(), /used already/);
  const twice = await cli(['developers', 'invite', email], cliEnv(l));
  t.equal(twice.code, 1, 'no invitation for an existing account');
  t.match(twice.stderr, /already has a developer account/);

  const listed = await cli(['developers', 'list', '--json'], cliEnv(l));
  t.same(JSON.parse(listed.stdout).map((d: { email: string; two_step: boolean }) => [d.email, d.two_step]), [['ada.dev@example.org', false]]);

  // A stolen session alone cannot put its own authenticator on the account: the password comes first.
  const before = await formCsrf(browser, `${l.url}/developer/account`);
  for (const [password, status, what] of [['', 400, 'no password'], ['not the password at all', 401, 'a wrong password']] as const) {
    const refused = await browser.post(`${l.url}/developer/account/totp/setup`, { csrf: before.csrf, setupPassword: password });
    t.equal(refused.status, status, `set-up refused: ${what}`);
    t.match(await refused.text(), /id="f-setupPassword-error"/, 'the error under the password field');
  }
  t.equal((await browser.get(`${l.url}/developer/account/totp`)).status, 303, 'no set-up begun');

  const { secret, recoveryCodes: firstCodes } = await enableDeveloperTotp(l, browser);
  t.equal(firstCodes.length, 10);
  const on = await formCsrf(browser, `${l.url}/developer/account`);
  const noNewCodes = await browser.post(`${l.url}/developer/account/recovery-codes`, { csrf: on.csrf, recoveryPassword: 'not the password at all' });
  t.equal(noNewCodes.status, 401, 'new recovery codes need the password too');
  t.equal((await l.store.findDeveloper(account!.id))?.recoveryCodeHashes?.length, 10, 'the codes unchanged');
  const newCodes = await browser.post(`${l.url}/developer/account/recovery-codes`, { csrf: on.csrf, recoveryPassword: DEVELOPER_PASSWORD });
  t.equal(location(newCodes, l.url).pathname, '/developer/account/recovery-codes', 'with it: new codes, shown once');
  const shown = await browser.get(`${l.url}/developer/account/recovery-codes`);
  t.equal(shown.status, 200);
  const recoveryCodes = /id="recovery-codes">([^<]*)</.exec(await shown.text())![1]!.trim().split('\n');
  t.equal(recoveryCodes.length, 10);
  t.notOk(recoveryCodes.some((c) => firstCodes.includes(c)), 'all new');
  const home = await (await browser.get(`${l.url}/developer/account`)).text();
  t.match(home, 'Two\u2011step sign\u2011in is on', 'the heading, with non-breaking hyphens');
  t.match(home, 'Two-step sign-in turned on', 'recorded in the history');
  t.match((await l.store.findDeveloper(account!.id))?.totpSecret, /^v1\./, 'the secret is stored encrypted');
  t.equal((await browser.get(`${l.url}/developer/account/recovery-codes`)).status, 303, 'recovery codes are shown once');

  // Sign out: the old cookie opens nothing.
  const session = browser.cookies.get('lanyard_developer')!;
  const out = await browser.post(`${l.url}/developer/sign-out`, { csrf: csrfOf(home) });
  t.equal(out.status, 303);
  t.equal((await accountWith(l, session)).status, 303, 'the signed-out cookie no longer opens the account page');

  // Password right → second step; the half-done sign-in opens nothing.
  const b2 = new HttpBrowser();
  const signIn = await formCsrf(b2, `${l.url}/developer/sign-in`);
  let res = await b2.post(`${l.url}/developer/sign-in`, { csrf: signIn.csrf, email: 'ADA.DEV@example.org', password: DEVELOPER_PASSWORD });
  t.equal(location(res, l.url).pathname, '/developer/sign-in/verify');
  t.notOk(b2.cookies.has('lanyard_developer'), 'no session before the second step');
  t.equal(location(await b2.get(`${l.url}/developer/account`), l.url).pathname, '/developer/sign-in');
  const verify = await formCsrf(b2, `${l.url}/developer/sign-in/verify`);
  res = await b2.post(`${l.url}/developer/sign-in/verify`, { csrf: verify.csrf, code: '000000' === nowCode(secret) ? '111111' : '000000' });
  t.equal(res.status, 401, 'a wrong code is refused');
  t.match(errorOf(await res.text()), /That code did not work/);
  const code = await freshTotpCode(secret);
  res = await b2.post(`${l.url}/developer/sign-in/verify`, { csrf: verify.csrf, code });
  t.equal(res.status, 303, 'the right code signs in');
  t.equal(location(res, l.url).pathname, '/developer');
  t.equal((await b2.get(`${l.url}/developer/account`)).status, 200);

  // The same code again, in a new sign-in: refused (RFC 6238 §5.2).
  const b3 = new HttpBrowser();
  const s3 = await formCsrf(b3, `${l.url}/developer/sign-in`);
  await b3.post(`${l.url}/developer/sign-in`, { csrf: s3.csrf, email: 'ada.dev@example.org', password: DEVELOPER_PASSWORD });
  const v3 = await formCsrf(b3, `${l.url}/developer/sign-in/verify`);
  res = await b3.post(`${l.url}/developer/sign-in/verify`, { csrf: v3.csrf, code });
  t.equal(res.status, 401, 'a replayed code is refused');

  // A recovery code works once.
  res = await b3.post(`${l.url}/developer/sign-in/verify`, { csrf: v3.csrf, code: recoveryCodes[0]!.toLowerCase() });
  t.equal(res.status, 303, 'a recovery code works (case does not matter)');
  const afterRecovery = await (await b3.get(`${l.url}/developer/account`)).text();
  t.match(afterRecovery, /<strong>9<\/strong> unused recovery codes/);
  // The history reads as sentences (newest first), never as the stored fields behind them.
  const changes = [...afterRecovery.matchAll(/<p class="history-what">(.*?)<\/p>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
  t.same(changes.slice(0, 3), ['Signed in: with a recovery code', 'Recovery code used: 9 codes left', 'Signed in: with an authenticator code'], 'the latest changes');
  t.equal(changes.at(-1), 'Account created: invited by Lanyard’s operator', 'the first one, with who invited');
  t.notMatch(afterRecovery, /invitedBy|secondFactor|via: |operator \(lanyard CLI\)/, 'no field names or command names');
  const b4 = new HttpBrowser();
  const s4 = await formCsrf(b4, `${l.url}/developer/sign-in`);
  await b4.post(`${l.url}/developer/sign-in`, { csrf: s4.csrf, email: 'ada.dev@example.org', password: DEVELOPER_PASSWORD });
  const v4 = await formCsrf(b4, `${l.url}/developer/sign-in/verify`);
  res = await b4.post(`${l.url}/developer/sign-in/verify`, { csrf: v4.csrf, code: recoveryCodes[0]! });
  t.equal(res.status, 401, 'a used recovery code is refused');
  res = await b4.post(`${l.url}/developer/sign-in/verify`, { csrf: v4.csrf, code: recoveryCodes[1]! });
  t.equal(res.status, 303, 'another one works');

  // Turning TOTP off needs the password; then sign-in is the password alone.
  const acct = await formCsrf(b4, `${l.url}/developer/account`);
  res = await b4.post(`${l.url}/developer/account/totp/disable`, { csrf: acct.csrf, password: 'not the password at all' });
  t.equal(res.status, 401);
  t.ok((await l.store.findDeveloper(account!.id))?.totpSecret, 'still on after a wrong password');
  res = await b4.post(`${l.url}/developer/account/totp/disable`, { csrf: acct.csrf, password: DEVELOPER_PASSWORD });
  t.equal(res.status, 303);
  t.equal((await l.store.findDeveloper(account!.id))?.totpSecret, undefined);
  t.equal((await b2.get(`${l.url}/developer/account`)).status, 303, 'other sessions ended');
  t.equal((await b4.get(`${l.url}/developer/account`)).status, 200, 'this one goes on');

  const logs = l.logs.join('');
  for (const s of [DEVELOPER_PASSWORD, secret, link![1]!, session, ...recoveryCodes, code]) t.notOk(logs.includes(s), 'no secret in the logs');
  t.match(logs, /developer\.signed_in/);
});

const nowCode = (secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() });

t.test('sign-in errors are generic; repeated wrong passwords are throttled (429)', async (t) => {
  const l = await startLanyard(t);
  const dev = await createDeveloper(l);
  const b = new HttpBrowser();
  const { csrf } = await formCsrf(b, `${l.url}/developer/sign-in`);
  const unknown = await b.post(`${l.url}/developer/sign-in`, { csrf, email: 'nobody@example.org', password: DEVELOPER_PASSWORD });
  t.equal(unknown.status, 401);
  const wrong = await b.post(`${l.url}/developer/sign-in`, { csrf, email: dev.email, password: 'a wrong but long password' });
  t.equal(wrong.status, 401);
  t.equal(errorOf(await unknown.text()), errorOf(await wrong.text()), 'the same message for an unknown email and a wrong password');
  t.match(errorOf(await (await b.post(`${l.url}/developer/sign-in`, { csrf, email: dev.email, password: 'x' })).text()), /email or password is wrong/);

  let throttled: Response | undefined;
  for (let i = 0; i < 10 && !throttled; i += 1) {
    const res = await b.post(`${l.url}/developer/sign-in`, { csrf, email: dev.email, password: `wrong password number ${i}` });
    if (res.status === 429) throttled = res;
    else t.equal(res.status, 401);
  }
  t.ok(throttled, 'throttled after a few wrong passwords');
  t.ok(Number(throttled!.headers.get('retry-after')) > 0, 'with Retry-After');
  t.match(await throttled!.text(), /Too many tries/);
  const right = await b.post(`${l.url}/developer/sign-in`, { csrf, email: dev.email, password: dev.password });
  t.equal(right.status, 429, 'even the right password waits');
  t.notOk(setCookie(right, 'lanyard_developer'));

  const elsewhere = await signInDeveloper(l, { email: dev.email, password: dev.password });
  t.equal((await elsewhere.get(`${l.url}/developer/account`)).status, 200, 'another device is not slowed');
});

t.test('sessions end after 30 idle minutes and 12 hours after sign-in (fake clock)', async (t) => {
  const clock = new ManualClock(Date.parse('2030-03-04T08:00:00Z'));
  const l = await startLanyard(t, { clock });
  const dev = await createDeveloper(l, { clock });
  const minutes = (n: number) => clock.advance(n * 60_000);
  const status = async (b: HttpBrowser) => (await b.get(`${l.url}/developer/account`)).status;

  minutes(29);
  t.equal(await status(dev.browser), 200, 'used within 30 minutes');
  minutes(29);
  t.equal(await status(dev.browser), 200, 'the idle time slides');
  minutes(31);
  t.equal(await status(dev.browser), 303, 'over after 30 idle minutes');

  const b = await signInDeveloper(l, { email: dev.email, password: dev.password });
  for (let spent = 25; spent <= 11 * 60 + 55; spent += 25) {
    minutes(25);
    if ((await status(b)) !== 200) return t.fail(`ended early, after ${spent} minutes`);
  } // 11 h 40 min
  minutes(15);
  t.equal(await status(b), 200, 'still on at 11 h 55 min');
  minutes(10);
  t.equal(await status(b), 303, 'over 12 hours after sign-in, however busy');
});

t.test('a password change ends the other sessions; sign out everywhere ends all', async (t) => {
  const l = await startLanyard(t);
  const dev = await createDeveloper(l);
  const other = await signInDeveloper(l, { email: dev.email, password: dev.password });
  const url = `${l.url}/developer/account/password`;
  const { csrf } = await formCsrf(dev.browser, `${l.url}/developer/account`);
  const next = 'another long developer passphrase';

  let res = await dev.browser.post(url, { csrf, currentPassword: 'a wrong current password', newPassword: next, confirmPassword: next });
  t.equal(res.status, 401, 'the current password is checked');
  res = await dev.browser.post(url, { csrf, currentPassword: dev.password, newPassword: next, confirmPassword: `${next}!` });
  t.equal(res.status, 400, 'the confirmation must match');
  res = await dev.browser.post(url, { csrf, currentPassword: dev.password, newPassword: dev.email, confirmPassword: dev.email });
  t.equal(res.status, 400, 'not the email');
  t.equal((await other.get(`${l.url}/developer/account`)).status, 200, 'nothing ended yet');

  res = await dev.browser.post(url, { csrf, currentPassword: dev.password, newPassword: next, confirmPassword: next });
  t.equal(res.status, 303);
  const page = await (await dev.browser.get(`${l.url}/developer/account`)).text();
  t.match(page, 'Your password is changed', 'this browser stays signed in');
  t.match(page, 'Password changed', 'recorded');
  t.equal((await other.get(`${l.url}/developer/account`)).status, 303, 'the other session is over');
  await t.rejects(signInDeveloper(l, { email: dev.email, password: dev.password }), 'the old password no longer works');
  const third = await signInDeveloper(l, { email: dev.email, password: next });

  res = await dev.browser.post(`${l.url}/developer/account/sign-out-everywhere`, { csrf: csrfOf(page) });
  t.equal(res.status, 303);
  t.equal((await dev.browser.get(`${l.url}/developer/account`)).status, 303, 'this session is over');
  t.equal((await third.get(`${l.url}/developer/account`)).status, 303, 'and every other');
});

t.test('sign-up is closed by default (404) and open with developer_signup "open"', async (t) => {
  const closed = await startLanyard(t);
  const get = await fetch(`${closed.url}/developer/sign-up`);
  t.equal(get.status, 404);
  t.match(await get.text(), /by invitation/);
  const post = await new HttpBrowser().post(`${closed.url}/developer/sign-up`, { email: 'x@example.org', displayName: 'X', password: DEVELOPER_PASSWORD, confirm: DEVELOPER_PASSWORD });
  t.equal(post.status, 404);
  t.equal(await closed.store.findDeveloperByEmail('x@example.org'), undefined);
  t.notMatch(await (await fetch(`${closed.url}/developer/sign-in`)).text(), /sign-up/);

  const open = await startLanyard(t, { env: { LANYARD_CONFIG: writeConfig((c) => { c.developer_signup = 'open'; }) } });
  t.match(await (await fetch(`${open.url}/developer/sign-in`)).text(), 'href="/developer/sign-up"');
  const b = new HttpBrowser();
  const { csrf } = await formCsrf(b, `${open.url}/developer/sign-up`);
  const form = { csrf, email: 'Grace@Example.org', displayName: 'Grace Hopper', password: DEVELOPER_PASSWORD, confirm: DEVELOPER_PASSWORD };
  let res = await b.post(`${open.url}/developer/sign-up`, { ...form, email: 'not an email' });
  t.equal(res.status, 400);
  res = await b.post(`${open.url}/developer/sign-up`, form);
  t.equal(res.status, 303);
  t.equal(location(res, open.url).pathname, '/developer/account');
  t.equal((await open.store.findDeveloperByEmail('grace@example.org'))?.displayName, 'Grace Hopper');
  t.match(await (await b.get(`${open.url}/developer/account`)).text(), 'Welcome, Grace Hopper');
  const dup = await new HttpBrowser();
  const d = await formCsrf(dup, `${open.url}/developer/sign-up`);
  res = await dup.post(`${open.url}/developer/sign-up`, { ...form, csrf: d.csrf, email: 'grace@example.org' });
  t.equal(res.status, 400);
  t.match(await res.text(), 'already exists');
});

t.test('open sign-up: 10 an hour from one address, counting sign-ups refused for a taken address (the answer that tells an account exists)', async (t) => {
  const open = await startLanyard(t, { env: { LANYARD_CONFIG: writeConfig((c) => { c.developer_signup = 'open'; }) } });
  const b = new HttpBrowser();
  const { csrf } = await formCsrf(b, `${open.url}/developer/sign-up`);
  const form = (email: string) => ({ csrf, email, displayName: 'Probe', password: DEVELOPER_PASSWORD, confirm: DEVELOPER_PASSWORD });
  t.equal((await b.post(`${open.url}/developer/sign-up`, form('ada@example.org'))).status, 303, 'the first sign-up');
  const b2 = new HttpBrowser();
  const probe = await formCsrf(b2, `${open.url}/developer/sign-up`);
  const statuses: number[] = [];
  for (let i = 0; i < 10; i += 1) statuses.push((await b2.post(`${open.url}/developer/sign-up`, { ...form('ada@example.org'), csrf: probe.csrf })).status);
  t.same(statuses, [400, 400, 400, 400, 400, 400, 400, 400, 400, 429], 'nine more tries with the taken address, then 429');
  const last = await b2.post(`${open.url}/developer/sign-up`, { ...form('new@example.org'), csrf: probe.csrf });
  t.equal(last.status, 429, 'a new address from the same network address waits too');
  const wait = Number(last.headers.get('retry-after'));
  t.ok(wait > 3_000 && wait <= 3_600, `Retry-After: ${wait} s (the hour's rest)`);
  t.notMatch(await last.text(), /already exists/, 'the page no longer says which addresses have accounts');
  t.equal(await open.store.findDeveloperByEmail('new@example.org'), undefined, 'and no account was made');
});

t.test('forms without their CSRF token are refused (403) and change nothing', async (t) => {
  const l = await startLanyard(t);
  const dev = await createDeveloper(l);
  const { csrf } = await formCsrf(dev.browser, `${l.url}/developer/account`);

  for (const body of [{}, { csrf: 'forged' }, { csrf: `${csrf}x` }] as Record<string, string>[]) {
    const res = await dev.browser.post(`${l.url}/developer/account/name`, { ...body, displayName: 'Mallory' });
    t.equal(res.status, 403);
  }
  t.equal((await l.store.findDeveloper(dev.id))?.displayName, dev.name, 'the name is unchanged');
  t.equal((await dev.browser.post(`${l.url}/developer/sign-out`, {})).status, 403);
  t.equal((await dev.browser.get(`${l.url}/developer/account`)).status, 200, 'still signed in');
  const renamed = await dev.browser.post(`${l.url}/developer/account/name`, { csrf, displayName: 'Ada B.' });
  t.equal(renamed.status, 303, 'with the token it works');
  t.equal((await l.store.findDeveloper(dev.id))?.displayName, 'Ada B.');

  // Another session's token is not this one's.
  const other = await signInDeveloper(l, { email: dev.email, password: dev.password });
  t.equal((await other.post(`${l.url}/developer/account/name`, { csrf, displayName: 'Mallory' })).status, 403);

  // Before sign-in too: no login CSRF, no invitation accepted by a cross-site post.
  const b = new HttpBrowser();
  await b.get(`${l.url}/developer/sign-in`);
  const signIn = await b.post(`${l.url}/developer/sign-in`, { email: dev.email, password: dev.password });
  t.equal(signIn.status, 403);
  t.notOk(setCookie(signIn, 'lanyard_developer'), 'no session');
  const link = await inviteDeveloper(l, 'eve@example.org');
  const res = await new HttpBrowser().post(link, { displayName: 'Eve', password: DEVELOPER_PASSWORD, confirm: DEVELOPER_PASSWORD });
  t.equal(res.status, 403);
  t.equal(await l.store.findDeveloperByEmail('eve@example.org'), undefined);
  t.equal((await acceptInvitation(new HttpBrowser(), link, 'Eve', DEVELOPER_PASSWORD)).status, 303, 'the invitation still works');
});

t.test('the developer area answers unknown pages with an HTML 404, and ?next= stays on /developer', async (t) => {
  const l = await startLanyard(t);
  const missing = await fetch(`${l.url}/developer/no-such-page`);
  t.equal(missing.status, 404);
  t.match(missing.headers.get('content-type'), /text\/html/);
  t.match(await missing.text(), '<h1>Page not found</h1>');
  const api = await fetch(`${l.url}/developer/api/no-such-endpoint`);
  t.ok(api.status >= 400, 'the API refuses it (401 without a token)');
  t.match(api.headers.get('content-type'), /json/, 'the API answers JSON, not the pages\' 404');

  const anon = await fetch(`${l.url}/developer/account/tokens`, { redirect: 'manual' });
  t.equal(anon.status, 303);
  t.equal(anon.headers.get('location'), '/developer/sign-in?next=%2Fdeveloper%2Faccount%2Ftokens');

  const dev = await createDeveloper(l);
  const go = async (next: string) => {
    const b = new HttpBrowser();
    const { csrf } = await formCsrf(b, `${l.url}/developer/sign-in?next=${encodeURIComponent(next)}`);
    const res = await b.post(`${l.url}/developer/sign-in`, { csrf, email: dev.email, password: dev.password, next });
    return res.headers.get('location');
  };
  t.equal(await go('/developer/account/tokens'), '/developer/account/tokens');
  t.equal(await go('https://evil.example/developer'), '/developer');
  t.equal(await go('//evil.example/developer'), '/developer');
  t.equal(await go('/\\evil.example'), '/developer');
  t.equal(await go('/oauth/authorize'), '/developer');
});

t.test('API tokens: created with an expiry, shown once with a copy button, revoked', async (t) => {
  const l = await startLanyard(t);
  const dev = await createDeveloper(l);
  const url = `${l.url}/developer/account/tokens`;
  const { csrf, page } = await formCsrf(dev.browser, url);
  t.match(page, 'value="30"', 'default 30 days');

  let res = await dev.browser.post(url, { csrf, label: 'deploy', expiresInDays: '91', currentPassword: dev.password });
  t.equal(res.status, 400, 'at most 90 days');
  // The one-time value is bound to its session: its cookie, carried to another session, shows nothing.
  res = await dev.browser.post(url, { csrf, label: 'stolen', expiresInDays: '30', currentPassword: dev.password });
  t.equal(res.status, 303);
  const sealed = dev.browser.cookies.get('lanyard_developer_reveal');
  t.match(setCookie(res, 'lanyard_developer_reveal'), /HttpOnly; SameSite=Lax/);
  t.match(setCookie(res, 'lanyard_developer_reveal'), /Path=\/developer; Max-Age=300/);
  dev.browser.cookies.delete('lanyard_developer_reveal');
  const thief = await signInDeveloper(l, { email: dev.email, password: dev.password });
  thief.cookies.set('lanyard_developer_reveal', sealed!);
  t.notMatch(await (await thief.get(url)).text(), /id="new-token"/, 'another session cannot open it');
  t.notMatch(sealed, /lyd_/, 'and it is not readable in the cookie');
  const [stolen] = await l.store.listApiTokens(dev.id);
  await dev.browser.post(`${url}/${stolen!.id}/revoke`, { csrf });

  res = await dev.browser.post(url, { csrf, label: 'deploy', expiresInDays: '30', currentPassword: dev.password });
  t.equal(res.status, 303);
  const shown = await (await dev.browser.get(url)).text();
  const token = /id="new-token"[^>]*>([^<]+)</.exec(shown)?.[1];
  t.match(token, /^lyd_/, 'the token is shown');
  t.match(shown, 'data-copy="new-token"', 'with a copy button');
  const [record] = await l.store.listApiTokens(dev.id);
  t.equal(record?.label, 'deploy');
  t.ok(Math.abs(Date.parse(record!.expiresAt) - Date.now() - 30 * 86400e3) < 60e3, 'expires in 30 days');
  const api = await fetch(`${l.url}/developer/api/apps`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(api.status, 200, 'the token works on the API');
  t.notMatch(await (await dev.browser.get(url)).text(), token!, 'shown once');

  // The list links to a page that asks first; opening it revokes nothing.
  t.match(await (await dev.browser.get(url)).text(), `href="/developer/account/tokens/${record!.id}/revoke"`, 'the list links to the confirmation');
  const confirm = await dev.browser.get(`${url}/${record!.id}/revoke`);
  t.equal(confirm.status, 200);
  t.match(await confirm.text(), /Revoke the token “deploy”\?[\s\S]*401 from the moment you revoke it/);
  t.equal((await fetch(`${l.url}/developer/api/apps`, { headers: { authorization: `Bearer ${token}` } })).status, 200, 'the page alone revokes nothing');
  const other = await createDeveloper(l, { email: 'other@example.org' });
  t.equal((await other.browser.get(`${url}/${record!.id}/revoke`)).status, 404, 'another developer\'s token: 404');
  t.equal((await dev.browser.get(`${url}/no-such-token/revoke`)).status, 404, 'no such token: 404');

  res = await dev.browser.post(`${url}/${record!.id}/revoke`, { csrf });
  t.equal(res.status, 303);
  t.match(await (await dev.browser.get(url)).text(), 'is revoked');
  t.equal((await dev.browser.get(`${url}/${record!.id}/revoke`)).status, 404, 'once revoked, its page is gone');
  t.same(await l.store.listApiTokens(dev.id), []);
  t.equal((await fetch(`${l.url}/developer/api/apps`, { headers: { authorization: `Bearer ${token}` } })).status, 401);
  t.equal((await dev.browser.post(`${url}/${record!.id}/revoke`, { csrf })).status, 404, 'revoking twice: no such token');
  t.notOk(l.logs.join('').includes(token!), 'the token is never logged');
});

t.test('lanyard developers: list as a table, signout ends every session, unlock clears the waits', async (t) => {
  const l = await startLanyard(t);
  const env = cliEnv(l);
  const empty = await cli(['developers', 'list'], env);
  t.match(empty.stdout, /no developer accounts yet/);
  const bad = await cli(['developers', 'invite', 'not-an-email'], env);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /email address/);
  t.equal((await cli(['developers', 'invite'], env)).code, 1, 'EMAIL is required');

  const dev = await createDeveloper(l, { name: 'Grace Hopper' });
  const table = await cli(['developers', 'list'], env);
  t.equal(table.code, 0, table.stderr);
  t.match(table.stdout, /^EMAIL\s+NAME\s+TWO-STEP\s+APPS\s+CREATED$/m);
  t.match(table.stdout, new RegExp(`^${dev.email.replace(/\./g, '\\.')}\\s+Grace Hopper\\s+off\\s+0\\s+\\d{4}-\\d\\d-\\d\\d$`, 'm'));
  t.notMatch(table.stdout, /argon2|sha256/, 'never a hash');

  const second = await signInDeveloper(l, { email: dev.email, password: dev.password });
  const account = (await l.store.findDeveloper(dev.id))!;
  const tokens = new ApiTokens({ store: l.store, clock: systemClock, log: l.app.log });
  const { token } = await tokens.create(account, { label: 'CI' });
  await tokens.create(account, { label: 'laptop' });
  t.ok(await tokens.verify(token), 'an API token that works');
  const out = await cli(['developers', 'signout', dev.email.toUpperCase()], env);
  t.equal(out.code, 0, out.stderr);
  t.match(out.stdout, /signed out of the developer area everywhere, and 2 API tokens revoked/);
  t.equal(await tokens.verify(token), undefined, 'the API token is revoked');
  t.equal((await l.store.listApiTokens(dev.id)).length, 0, 'all of them');
  t.equal((await dev.browser.get(`${l.url}/developer/account`)).status, 303);
  t.equal((await second.get(`${l.url}/developer/account`)).status, 303);
  const events = await l.store.listDeveloperEvents(`developer:${dev.id}`, 10);
  t.ok(events.some((e) => e.action === 'sessions.ended' && e.actorId === 'operator'), 'recorded as the operator');
  t.match((await cli(['developers', 'signout', 'nobody@example.org'], env)).stderr, /no developer account for nobody@example.org/);

  // Waits from wrong passwords, cleared by unlock.
  const b = new HttpBrowser();
  const { csrf } = await formCsrf(b, `${l.url}/developer/sign-in`);
  let status = 0;
  for (let i = 0; i < 10 && status !== 429; i += 1) {
    status = (await b.post(`${l.url}/developer/sign-in`, { csrf, email: dev.email, password: `wrong password number ${i}` })).status;
  }
  t.equal(status, 429);
  const unlocked = await cli(['developers', 'unlock', dev.email], env);
  t.equal(unlocked.code, 0, unlocked.stderr);
  t.equal((await b.post(`${l.url}/developer/sign-in`, { csrf, email: dev.email, password: dev.password })).status, 303, 'signs in at once');
});

t.test('a stranger\'s wrong passwords stop new devices, never the developer\'s own (after a two-step sign-in)', async (t) => {
  const clock = new ManualClock(Date.parse('2030-05-06T09:00:00Z'));
  const l = await startLanyard(t, { clock });
  const dev = await createDeveloper(l, { clock });
  const { secret } = await enableDeveloperTotp(l, dev.browser, clock);
  const own = await signInDeveloper(l, { email: dev.email, password: dev.password, totpSecret: secret, clock });

  const stranger = new HttpBrowser();
  const { csrf } = await formCsrf(stranger, `${l.url}/developer/sign-in`);
  let stopped = false;
  for (let i = 0; i < 300 && !stopped; i += 1) {
    clock.advance(61_000); // past every wait: only the consecutive-failure cap is left to stop it
    const res = await stranger.post(`${l.url}/developer/sign-in`, { csrf, email: dev.email, password: `guess number ${i} of many` });
    stopped = res.status === 429 && /paused/.test(await res.text());
  }
  t.ok(stopped, 'new-device sign-in stops after 100 wrong passwords');
  const newDevice = new HttpBrowser();
  const fresh = await formCsrf(newDevice, `${l.url}/developer/sign-in`);
  t.equal((await newDevice.post(`${l.url}/developer/sign-in`, { csrf: fresh.csrf, email: dev.email, password: dev.password })).status, 429,
    'a new device waits for the operator');
  // The developer's laptop (its device cookie; its session idled out long ago) signs in as ever.
  t.equal((await own.get(`${l.url}/developer/account`)).status, 303, 'the old session is over');
  const laptop = new HttpBrowser();
  laptop.cookies.set('lanyard_device', own.cookies.get('lanyard_device')!);
  clock.advance(61_000);
  await signInDeveloper(l, { email: dev.email, password: dev.password, totpSecret: secret, clock, browser: laptop });
  t.equal((await laptop.get(`${l.url}/developer/account`)).status, 200, 'the developer\'s own device still signs in');
});

t.test('a recovery code used while new codes are made: the new codes stand, the old code does not come back', async (t) => {
  const l = await startLanyard(t);
  const accounts = new DeveloperAccounts({ store: l.store, clock: systemClock, log: l.app.log, keyEncryptionKey: Buffer.alloc(32, 7) });
  const created = await accounts.create({ email: 'race@example.org', displayName: 'Race', password: DEVELOPER_PASSWORD }, { how: 'sign-up' });
  const secret = newTotpSecret();
  const { account, recoveryCodes: old } = await accounts.enableTotp(created, secret, totpCode(secret, new Date()));
  for (let round = 0; round < 3; round += 1) {
    const stale = (await accounts.find(account.id))!;
    const [used, regenerated] = await Promise.all([
      accounts.verifySecondFactor(stale, old[round]!),
      accounts.regenerateRecoveryCodes(stale),
    ]);
    const stored = (await accounts.find(account.id))!.recoveryCodeHashes ?? [];
    t.same([...stored].sort(), regenerated.recoveryCodes.map(hashRecoveryCode).sort(), `round ${round}: exactly the new codes are stored`);
    t.ok(used === undefined || used === 'recovery code', 'the old code was either used first or refused');
    t.equal(await accounts.verifySecondFactor((await accounts.find(account.id))!, old[round + 1]!), undefined, 'an old code no longer works');
  }
  // A sign-in that read the account before the codes were replaced: its list is old, the code is no code.
  const before = (await accounts.find(account.id))!;
  const { recoveryCodes: newest } = await accounts.regenerateRecoveryCodes(before);
  const previous = (await accounts.find(account.id))!;
  t.equal(previous.recoveryCodeHashes?.length, 10);
  const staleCodes = (await accounts.regenerateRecoveryCodes(previous)).recoveryCodes;
  t.equal(await accounts.verifySecondFactor(previous, newest[0]!), undefined, 'a code of the replaced list, checked against a stale read: refused');
  t.equal(await accounts.verifySecondFactor((await accounts.find(account.id))!, staleCodes[0]!), 'recovery code', 'a current code works');
});
