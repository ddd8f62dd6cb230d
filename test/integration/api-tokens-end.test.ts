import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import {
  createDeveloper, csrfOf, DEVELOPER_PASSWORD, enableDeveloperTotp, formCsrf, freshTotpCode, type TestDeveloper, wrongTotpCode,
} from '../helpers/developer.js';
import { apiClient } from '../helpers/developer-api-client.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';

/**
 * docs/developer-area.md → Getting an account, The JSON API: a personal API token is made only with the
 * password again (or a fresh code, with two-step sign-in on), on the page and through the API, and every token
 * of the account ends with its sessions: a password change, signing out everywhere, the second factor changed
 * after signing in with a recovery code. A stolen session alone never becomes a lasting token.
 */

const clock = new ManualClock(new Date());
const lanyard = await startLanyard(t, { clock });
const api = apiClient(lanyard);
const TOKENS = `${lanyard.url}/developer/account/tokens`;
const newDeveloper = () => createDeveloper(lanyard, { clock });
/** A TOTP code Lanyard has not seen: a step on each time, so none is ever a replay. */
const nextCode = (secret: string) => { clock.advance(30_000); return freshTotpCode(secret, clock); };

/** POSTs the create form as a browser does; `extra` fills in the confirmation field. */
async function createOnPage(browser: HttpBrowser, extra: Record<string, string>, label = 'deploys') {
  const { csrf } = await formCsrf(browser, TOKENS);
  return browser.post(TOKENS, { csrf, label, expiresInDays: '30', ...extra });
}

/** A token made on the page with the password (the way a developer makes one): the token itself. */
async function tokenOf(dev: TestDeveloper, extra: Record<string, string> = { currentPassword: dev.password }): Promise<string> {
  const res = await createOnPage(dev.browser, extra);
  if (res.status !== 303) throw new Error(`token not created: ${res.status}`);
  const page = await (await dev.browser.get(TOKENS)).text();
  const token = /lyd_[0-9a-f]{16}_[A-Za-z0-9_-]+/.exec(page)?.[0];
  if (!token) throw new Error('no token shown');
  return token;
}

const listed = async (dev: TestDeveloper) => (await lanyard.store.listApiTokens(dev.id)).length;
const meStatus = async (token: string) => (await api(token, 'GET', '/me')).status;

t.test('the page: creating a token asks for the password again; without it or with a wrong one, nothing is made', async (t) => {
  const dev = await newDeveloper();
  const form = await (await dev.browser.get(TOKENS)).text();
  t.match(form, /name="currentPassword" type="password"/, 'the form asks for the password');

  const missing = await createOnPage(dev.browser, {});
  t.equal(missing.status, 400, 'no password: refused');
  t.match(await missing.text(), /Enter your password: making a token asks for it again/);
  const wrong = await createOnPage(dev.browser, { currentPassword: 'not the password at all' });
  t.equal(wrong.status, 401, 'a wrong password: refused');
  t.match(await wrong.text(), /Your password is not right: no token was made/);
  t.equal(await listed(dev), 0, 'nothing made by either');

  const token = await tokenOf(dev);
  t.equal(await listed(dev), 1, 'with the password: made');
  t.equal(await meStatus(token), 200, 'and it works');
  t.ok(lanyard.logs.some((l) => l.includes('"event":"developer.token_created"') && l.includes(dev.id)), 'its creation is logged');
});

t.test('a password change revokes every API token of the account', async (t) => {
  const dev = await newDeveloper();
  const [first, second] = [await tokenOf(dev), await tokenOf(dev)];
  t.equal(await meStatus(first), 200);
  const { csrf } = await formCsrf(dev.browser, `${lanyard.url}/developer/account`);
  const changed = await dev.browser.post(`${lanyard.url}/developer/account/password`, {
    csrf, currentPassword: dev.password, newPassword: 'another long passphrase here', confirmPassword: 'another long passphrase here',
  });
  t.equal(changed.status, 303, 'password changed');
  for (const token of [first, second]) t.equal(await meStatus(token), 401, 'the token is refused at /developer/api');
  t.equal(await listed(dev), 0, 'and gone from the list');
  t.equal(lanyard.logs.filter((l) => l.includes('"event":"developer.token_revoked"') && l.includes(dev.id)).length, 2, 'each revocation is logged');
});

t.test('signing out everywhere revokes every API token of the account', async (t) => {
  const dev = await newDeveloper();
  const token = await tokenOf(dev);
  const { csrf } = await formCsrf(dev.browser, `${lanyard.url}/developer/account`);
  const out = await dev.browser.post(`${lanyard.url}/developer/account/sign-out-everywhere`, { csrf });
  t.equal(out.status, 303);
  t.equal(await meStatus(token), 401, 'the token is refused');
  t.equal(await listed(dev), 0);
});

t.test('two-step sign-in: a fresh code makes a token; after a recovery-code sign-in, changing the second step revokes it', async (t) => {
  const dev = await newDeveloper();
  const { secret, recoveryCodes } = await enableDeveloperTotp(lanyard, dev.browser, clock);
  t.match(await (await dev.browser.get(TOKENS)).text(), /name="code"/, 'the form asks for a code');
  t.equal((await createOnPage(dev.browser, { currentPassword: dev.password })).status, 400, 'the password alone is not enough');
  const wrong = await createOnPage(dev.browser, { code: wrongTotpCode(secret, clock) });
  t.equal(wrong.status, 401, 'a wrong code: refused');
  t.match(await wrong.text(), /That code did not work: no token was made/);
  t.equal((await createOnPage(dev.browser, { code: recoveryCodes[0]! })).status, 401, 'a recovery code is no answer here');
  t.equal(await listed(dev), 0, 'nothing made');
  const token = await tokenOf(dev, { code: await nextCode(secret) });
  t.equal(await meStatus(token), 200, 'a fresh code: made');

  // The phone is lost: sign in with the password and a recovery code, then turn the second step off.
  const browser = new HttpBrowser();
  const signIn = await formCsrf(browser, `${lanyard.url}/developer/sign-in`);
  const first = await browser.post(`${lanyard.url}/developer/sign-in`, { csrf: signIn.csrf, email: dev.email, password: DEVELOPER_PASSWORD });
  t.equal(location(first, lanyard.url).pathname, '/developer/sign-in/verify');
  const verify = await formCsrf(browser, `${lanyard.url}/developer/sign-in/verify`);
  t.equal((await browser.post(`${lanyard.url}/developer/sign-in/verify`, { csrf: verify.csrf, code: recoveryCodes[1]! })).status, 303, 'signed in with a recovery code');
  const account = await (await browser.get(`${lanyard.url}/developer/account`)).text();
  const off = await browser.post(`${lanyard.url}/developer/account/totp/disable`, { csrf: csrfOf(account), password: DEVELOPER_PASSWORD });
  t.equal(off.status, 303, 'second step off');
  t.equal(await meStatus(token), 401, 'the token made before is refused');
  t.equal(await listed(dev), 0);
});

t.test('the API: creating a token asks for the password (or a fresh code) too', async (t) => {
  const dev = await newDeveloper();
  const token = await tokenOf(dev);
  const missing = await api(token, 'POST', '/tokens', { label: 'ci' });
  t.equal(missing.status, 400, 'no password: 400');
  t.match(missing.json, { error: 'invalid_request', error_description: /asks for your current password/, fields: [{ path: '/password' }] });
  const wrong = await api(token, 'POST', '/tokens', { label: 'ci', password: 'not the password at all' });
  t.equal(wrong.status, 403, 'a wrong password: 403');
  t.match(wrong.json, { error: 'forbidden', error_description: /password is not right; no token was made/, fields: [{ path: '/password' }] });
  t.equal(await listed(dev), 1, 'nothing made');
  const made = await api(token, 'POST', '/tokens', { label: 'ci', expires_in_days: 7, password: dev.password });
  t.equal(made.status, 201, 'with the password: made');
  t.equal(await meStatus(made.json.token), 200);

  const two = await newDeveloper();
  const { secret } = await enableDeveloperTotp(lanyard, two.browser, clock);
  const twoToken = await tokenOf(two, { code: await nextCode(secret) });
  const byPassword = await api(twoToken, 'POST', '/tokens', { label: 'ci', password: two.password });
  t.equal(byPassword.status, 400, 'two-step sign-in on: the password is not enough');
  t.match(byPassword.json, { fields: [{ path: '/totp_code' }] });
  t.equal((await api(twoToken, 'POST', '/tokens', { label: 'ci', totp_code: wrongTotpCode(secret, clock) })).status, 403, 'a wrong code: 403');
  t.equal((await api(twoToken, 'POST', '/tokens', { label: 'ci', expires_in_days: 7, totp_code: await nextCode(secret) })).status, 201, 'a fresh code: made');
});

t.test('the days: 30 by default, at most 90', async (t) => {
  const dev = await newDeveloper();
  const token = await tokenOf(dev);
  const over = await api(token, 'POST', '/tokens', { label: 'long', expires_in_days: 91, password: dev.password });
  t.equal(over.status, 400);
  t.match(over.json, { fields: [{ path: '/expires_in_days' }] });
  const { csrf } = await formCsrf(dev.browser, TOKENS);
  const page = await dev.browser.post(TOKENS, { csrf, label: 'long', expiresInDays: '91', currentPassword: dev.password });
  t.equal(page.status, 400, 'the page too');
  t.match(await page.text(), /from 1 to 90/);
});

t.test('fuzz: malformed requests to both ways of making a token, and to the account routes, never answer 5xx', async (t) => {
  const dev = await newDeveloper();
  const token = await tokenOf(dev);
  const { csrf } = await formCsrf(dev.browser, TOKENS);
  let seed = 7;
  const rand = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
  const junk = (): unknown => [
    undefined, null, 0, -1, 1.5, 1e309, true, '', ' ', 'x'.repeat(5000), '\u0000', '\u202e', '💥', [], {}, [1], { a: 1 }, '999999', DEVELOPER_PASSWORD,
  ][rand(19)];
  const fields = ['label', 'expires_in_days', 'password', 'totp_code', 'currentPassword', 'code', 'expiresInDays', '__proto__', 'csrf'];
  let sent = 0;
  const fiveXX: string[] = [];
  for (let i = 0; i < 300; i += 1) {
    const body: Record<string, unknown> = {};
    for (let k = rand(5); k > 0; k -= 1) body[fields[rand(fields.length)]!] = junk();
    if (i % 2 === 0) {
      const raw = rand(6) === 0 ? '{"label":' : JSON.stringify(body);
      const res = await api(token, 'POST', '/tokens', raw);
      if (res.status >= 500) fiveXX.push(`api ${res.status} ${raw.slice(0, 80)}`);
    } else {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(body)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v) ?? '');
      if (rand(2) === 0) form.set('csrf', csrf);
      const res = await dev.browser.post(TOKENS, Object.fromEntries(form));
      if (res.status >= 500) fiveXX.push(`page ${res.status} ${form.toString().slice(0, 80)}`);
    }
    sent += 1;
  }
  t.equal(sent, 300);
  t.same(fiveXX, [], 'no 5xx');

  // The account routes whose changes now revoke tokens, with malformed forms (the session may end on the way).
  const other = await newDeveloper();
  const account = await formCsrf(other.browser, `${lanyard.url}/developer/account`);
  const routes = ['password', 'sign-out-everywhere', 'totp/disable', 'totp/setup', 'recovery-codes'];
  for (let i = 0; i < 150; i += 1) {
    const form: Record<string, string> = {};
    for (let k = rand(5); k > 0; k -= 1) form[fields[rand(fields.length)]!] = String(JSON.stringify(junk()) ?? '');
    if (rand(3) > 0) form.csrf = account.csrf;
    const route = routes[rand(routes.length)]!;
    const res = await other.browser.post(`${lanyard.url}/developer/account/${route}`, form);
    if (res.status >= 500) fiveXX.push(`${route} ${res.status} ${JSON.stringify(form).slice(0, 80)}`);
    sent += 1;
  }
  t.equal(sent, 450, '450 malformed requests in all');
  t.same(fiveXX, [], 'no 5xx from the account routes either');
});

t.test('on a Redis store too: a password change revokes the tokens', async (t) => {
  const redis = await startRedis(t, { aof: false });
  const l = await startLanyard(t, {
    clock, env: redisStoreEnv(redis.url, 'tokens'),
  });
  const call = apiClient(l);
  const dev = await createDeveloper(l, { clock });
  const make = async () => {
    const { csrf } = await formCsrf(dev.browser, `${l.url}/developer/account/tokens`);
    t.equal((await dev.browser.post(`${l.url}/developer/account/tokens`, { csrf, label: 'ci', currentPassword: DEVELOPER_PASSWORD })).status, 303);
    return /lyd_[0-9a-f]{16}_[A-Za-z0-9_-]+/.exec(await (await dev.browser.get(`${l.url}/developer/account/tokens`)).text())![0];
  };
  const token = await make();
  t.equal((await call(token, 'GET', '/me')).status, 200);
  const account = await formCsrf(dev.browser, `${l.url}/developer/account`);
  await dev.browser.post(`${l.url}/developer/account/password`, {
    csrf: account.csrf, currentPassword: DEVELOPER_PASSWORD, newPassword: 'another long passphrase here', confirmPassword: 'another long passphrase here',
  });
  t.equal((await call(token, 'GET', '/me')).status, 401, 'refused after the password change');
  t.same(await l.store.listApiTokens(dev.id), [], 'and revoked in the store');
});
