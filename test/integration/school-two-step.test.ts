import t, { type Test } from 'tap';
import { ManualClock } from '../../src/clock.js';
import { writeConfig } from '../helpers/config-file.js';
import { freshTotpCode, wrongTotpCode } from '../helpers/developer.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { auditEvents, consolePage, consolePost, consoleSecondStep, consoleSignIn, consoleSignInAsStaff, grantRole, putConsoleSchool, setUpConsoleTwoStep } from '../helpers/school-console.js';
import { putStaffToken } from '../helpers/staff-tokens.js';

/**
 * Two-step sign-in in the school console (docs/school-console.md → Signing in and your account), over HTTP
 * through the real sign-in screens, on SQLite and on Redis: a school admin reaches no console page before
 * setting it up; with it on, a right code signs in, a wrong one and a replayed one do not, five wrong ones end
 * the half-done sign-in (as do five minutes), a recovery code works once, the guessing protection answers 429;
 * a teacher gets in without it, may turn it on and off (each signs them out everywhere else and ends their API
 * tokens, this browser staying signed in); a teacher made an admin must set it up first.
 */

/** Six wrong codes free from one device, so that the half-done sign-in's five tries are what ends it. */
const CONFIG = writeConfig((c) => { c.login_throttling = { new_device_free_attempts: 6 }; });


const goesTo = (res: Response, base: string) => `${location(res, base).pathname}${location(res, base).search}`;

async function scenario(t: Test, env: Record<string, string>) {
  const clock = new ManualClock(new Date());
  const lanyard = await startLanyard(t, { clock, env: { LANYARD_CONFIG: CONFIG, ...env } });
  const { url, store } = lanyard;
  const north = await putConsoleSchool(store, 'north');
  const admin = north.admin.credentials;
  /** A code of a later step: never one Lanyard has seen. */
  const nextCode = (secret: string) => { clock.advance(30_000); return freshTotpCode(secret, clock); };
  const html = { accept: 'text/html' };
  /** The status /school/api answers a request made with the token. */
  const apiStatus = async (token: string) => (await fetch(`${url}/school/api/schools`, { headers: { authorization: `Bearer ${token}` } })).status;

  let secret = '';
  let recoveryCodes: string[] = [];
  let enableCode = '';

  await t.test('a school admin without it reaches no console page before setting it up', async (t) => {
    const { browser, done } = await consoleSignIn(url, admin);
    t.equal(done.status, 303);
    t.equal(goesTo(done, url), '/school/account/two-step', 'straight to the set-up');
    for (const page of ['/school', '/school/north', '/school/account', '/school/account/tokens']) {
      const res = await browser.get(`${url}${page}`, html);
      t.equal(res.status, 303, `GET ${page}`);
      t.equal(goesTo(res, url), '/school/account/two-step', `GET ${page}: to the set-up`);
    }
    const intro = await consolePage(browser, `${url}/school/account/two-step`);
    t.equal(intro.status, 200);
    t.match(intro.html, 'School admins must use two-step sign-in');
    t.notMatch(intro.html, 'name="confirm"', 'nothing more asked just after signing in');
    const form = await consolePost(browser, `${url}/school/account/tokens`, intro.html, { label: 'x', confirm: 'x' });
    t.equal(goesTo(form, url), '/school/account/two-step', 'a form neither');

    t.equal((await consolePost(browser, `${url}/school/account/two-step/start`, intro.html)).status, 303);
    const setup = await consolePage(browser, `${url}/school/account/two-step`);
    t.match(setup.html, /<img class="dev-qr" src="data:image\/png;base64,/, 'a QR code');
    secret = /id="totp-secret">([A-Z2-7 ]+)</.exec(setup.html)![1]!.replace(/ /g, '');
    t.match(secret, /^[A-Z2-7]{32}$/, 'and the key as text');
    const wrong = await consolePost(browser, `${url}/school/account/two-step`, setup.html, { code: wrongTotpCode(secret, clock) });
    t.equal(wrong.status, 400, 'a wrong code does not turn it on');
    t.match(await wrong.text(), 'That code does not match');
    t.notOk(await store.getStaffSecondFactor(north.admin.user.id), 'nothing stored');

    enableCode = await freshTotpCode(secret, clock);
    const on = await consolePost(browser, `${url}/school/account/two-step`, setup.html, { code: enableCode });
    t.equal(goesTo(on, url), '/school/account/recovery-codes');
    const codesPage = await consolePage(browser, `${url}/school/account/recovery-codes`);
    recoveryCodes = /id="recovery-codes">([^<]*)</.exec(codesPage.html)![1]!.trim().split('\n');
    t.equal(recoveryCodes.length, 10, 'ten recovery codes');
    t.equal((await browser.get(`${url}/school/account/recovery-codes`, html)).status, 303, 'shown once');
    const factor = await store.getStaffSecondFactor(north.admin.user.id);
    t.ok(factor, 'stored');
    t.notMatch(JSON.stringify(factor), secret, 'the secret encrypted at rest');
    t.notMatch(JSON.stringify(factor), recoveryCodes[0]!.replace(/-/g, ''), 'the recovery codes hashed');
    t.equal((await consolePage(browser, `${url}/school/north`)).status, 200, 'now the console opens');
    const enabled = await auditEvents(lanyard, north.organisation.id, 'two_step.enabled');
    t.match(enabled, [{ kind: 'credential', actorId: north.admin.user.id }], 'recorded in the audit trail');
    t.notMatch(JSON.stringify(enabled), secret, 'without the secret');
  });

  await t.test('with it on: a wrong code and a replayed code are refused, a right one signs in', async (t) => {
    const { browser, done } = await consoleSignIn(url, admin);
    t.equal(goesTo(done, url), '/school/sign-in/second-step', 'the second step');
    t.equal(goesTo(await browser.get(`${url}/school/north`, html), url), '/school/sign-in?next=%2Fschool%2Fnorth', 'no console page before it');
    const wrong = await consoleSecondStep(url, browser, wrongTotpCode(secret, clock));
    t.equal(wrong.status, 401, 'a wrong code');
    t.match(await wrong.text(), 'That code did not work');
    t.equal((await consoleSecondStep(url, browser, enableCode)).status, 401, 'the code that turned it on, again: a replay');
    const code = await nextCode(secret);
    const right = await consoleSecondStep(url, browser, code);
    t.equal(right.status, 303, 'a right code');
    t.equal(goesTo(right, url), '/school');
    t.equal((await consolePage(browser, `${url}/school/north`)).status, 200, 'signed in');
    const signedIn = await auditEvents(lanyard, north.organisation.id, 'console.signed_in');
    t.ok(signedIn.some((e) => e.detail?.second_step === 'totp'), 'the sign-in is recorded with its second step');

    const again = await consoleSignIn(url, admin);
    t.equal((await consoleSecondStep(url, again.browser, code)).status, 401, 'the same code in another sign-in: a replay');
  });

  await t.test('five wrong codes end the half-done sign-in; the guessing protection waits', async (t) => {
    const { browser } = await consoleSignIn(url, admin);
    for (let i = 1; i <= 4; i += 1) {
      const res = await consoleSecondStep(url, browser, wrongTotpCode(secret, clock));
      t.equal(res.status, 401, `wrong code ${i}`);
      t.match(await res.text(), 'name="code"', 'the form again');
    }
    const fifth = await consoleSecondStep(url, browser, wrongTotpCode(secret, clock));
    t.equal(fifth.status, 401);
    t.match(await fifth.text(), 'Too many wrong codes');
    t.equal((await browser.get(`${url}/school/sign-in/second-step`, html)).status, 400, 'the half-done sign-in is gone');

    await consoleSignIn(url, admin, browser);
    let res: Response | undefined;
    for (let i = 0; i < 3 && res?.status !== 429; i += 1) res = await consoleSecondStep(url, browser, wrongTotpCode(secret, clock));
    t.equal(res?.status, 429, 'more wrong codes from this device: the guessing protection waits');
    t.ok(Number(res?.headers.get('retry-after')) > 0, 'with Retry-After');
    t.match(await res?.text(), 'Too many tries');
    t.equal((await consoleSecondStep(url, browser, await freshTotpCode(secret, clock))).status, 429, 'even a right code waits');
  });

  await t.test('the half-done sign-in lasts five minutes', async (t) => {
    const { browser } = await consoleSignIn(url, admin);
    t.equal((await browser.get(`${url}/school/sign-in/second-step`, html)).status, 200);
    clock.advance(5 * 60_000 + 1000);
    const late = await browser.get(`${url}/school/sign-in/second-step`, html);
    t.equal(late.status, 400);
    t.match(await late.text(), 'took too long');
  });

  await t.test('a recovery code works once', async (t) => {
    const { browser } = await consoleSignIn(url, admin);
    const used = await consoleSecondStep(url, browser, recoveryCodes[0]!.toLowerCase());
    t.equal(used.status, 303, 'typed loosely, it signs in');
    t.equal((await consolePage(browser, `${url}/school/north`)).status, 200);
    t.equal((await store.getStaffSecondFactor(north.admin.user.id))?.recoveryCodeHashes.length, 9, 'spent');
    t.match(await auditEvents(lanyard, north.organisation.id, 'recovery_code.used'), [{ detail: { remaining: '9' } }]);
    const again = await consoleSignIn(url, admin);
    t.equal((await consoleSecondStep(url, again.browser, recoveryCodes[0]!)).status, 401, 'not twice');
    t.equal((await consoleSecondStep(url, again.browser, recoveryCodes[1]!)).status, 303, 'another one works');
  });

  await t.test('a teacher gets in without it, may turn it on, then off', async (t) => {
    const teacher = north.teacher.credentials;
    const { browser, done } = await consoleSignIn(url, teacher);
    t.equal(goesTo(done, url), '/school', 'straight in');
    const account = await consolePage(browser, `${url}/school/account`);
    t.equal(account.status, 200);
    t.match(account.html, 'Two\u2011step sign\u2011in is off');
    t.match(account.html, 'href="/school/account/two-step"', 'offered');
    const elsewhere = (await consoleSignIn(url, teacher)).browser;
    t.equal((await consolePage(elsewhere, `${url}/school/account`)).status, 200, 'signed in in another browser too');
    const before = await putStaffToken(store, north.teacher.user.id);
    t.equal(await apiStatus(before.token), 200, 'a token made before works');
    const on = await setUpConsoleTwoStep(url, browser, { clock });
    t.ok(await store.getStaffSecondFactor(north.teacher.user.id), 'on');
    t.equal((await consolePage(browser, `${url}/school/account`)).status, 200, 'this browser stays signed in');
    t.equal(goesTo(await elsewhere.get(`${url}/school/account`, html), url), '/school/sign-in?next=%2Fschool%2Faccount',
      'turning it on signs the person out everywhere else');
    t.equal(await apiStatus(before.token), 401, 'and ends the API tokens made before');

    const next = await consoleSignIn(url, teacher);
    t.equal(goesTo(next.done, url), '/school/sign-in/second-step', 'asked for from now on');
    t.equal((await consoleSecondStep(url, next.browser, await nextCode(on.secret))).status, 303);

    const other = await consoleSignInAsStaffWith(teacher, on.secret);
    const tokenBefore = await putStaffToken(store, north.teacher.user.id);
    t.equal(await apiStatus(tokenBefore.token), 200, 'a token made while it is on works');
    const page = (await consolePage(next.browser, `${url}/school/account`)).html;
    t.match(page, 'Two\u2011step sign\u2011in is on');
    t.match(page, 'Turn off two-step sign-in');
    const missing = await consolePost(next.browser, `${url}/school/account/two-step/off`, page, { confirm: '' });
    t.equal(missing.status, 400, 'turning it off asks who it is');
    const wrong = await consolePost(next.browser, `${url}/school/account/two-step/off`, page, { confirm: 'not my password' });
    t.equal(wrong.status, 401);
    t.ok(await store.getStaffSecondFactor(north.teacher.user.id), 'still on');
    const off = await consolePost(next.browser, `${url}/school/account/two-step/off`, page, { confirm: await nextCode(on.secret) });
    t.equal(goesTo(off, url), '/school/account', 'a fresh code turns it off');
    t.notOk(await store.getStaffSecondFactor(north.teacher.user.id), 'off');
    t.match(await auditEvents(lanyard, north.organisation.id, 'two_step.disabled'), [{ kind: 'credential', actorId: north.teacher.user.id }]);
    t.equal((await consolePage(next.browser, `${url}/school/account`)).status, 200, 'this browser stays signed in');
    t.equal(goesTo(await other.get(`${url}/school/account`, html), url), '/school/sign-in?next=%2Fschool%2Faccount',
      'turning it off signs the person out everywhere else');
    t.equal(await apiStatus(tokenBefore.token), 401, 'and ends the API tokens made before');
    t.equal(goesTo((await consoleSignIn(url, teacher)).done, url), '/school', 'no second step any more');
  });

  await t.test('a school admin cannot turn it off', async (t) => {
    const browser = await consoleSignInAsStaffWith(admin, secret);
    const page = (await consolePage(browser, `${url}/school/account`)).html;
    t.notMatch(page, 'Turn off two-step sign-in');
    t.match(page, 'School admins keep two-step sign-in on');
    const off = await consolePost(browser, `${url}/school/account/two-step/off`, page, { confirm: await nextCode(secret) });
    t.equal(goesTo(off, url), '/school/account');
    t.ok(await store.getStaffSecondFactor(north.admin.user.id), 'still on');
  });

  await t.test('a teacher made a school admin while signed in must set it up before the next page', async (t) => {
    const newcomer = (await putConsoleSchool(store, 'east')).teacher;
    const browser = await consoleSignInAsStaff(url, newcomer.credentials, new HttpBrowser(), clock);
    t.equal((await consolePage(browser, `${url}/school/east`)).status, 200, 'a teacher without it');
    await grantRole(store, newcomer.user.organisationId, newcomer.user.id, 'admin');
    const res = await browser.get(`${url}/school/east`, html);
    t.equal(goesTo(res, url), '/school/account/two-step', 'an admin now: set it up first');
  });

  /** Signs in with a code of the secret (a later step each time). */
  async function consoleSignInAsStaffWith(who: typeof admin, totp: string): Promise<HttpBrowser> {
    const { browser } = await consoleSignIn(url, who);
    const res = await consoleSecondStep(url, browser, await nextCode(totp));
    if (res.status !== 303) throw new Error(`second step: ${res.status}`);
    return browser;
  }
}

t.test('on SQLite', async (t) => scenario(t, {}));

t.test('on Redis', async (t) => {
  const redis = await startRedis(t, { aof: false });
  await scenario(t, redisStoreEnv(redis.url, 'school-two-step'));
});
