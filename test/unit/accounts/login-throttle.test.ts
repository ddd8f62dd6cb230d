import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import type { Store } from '../../../adapters/store.js';
import { type Attempt, DEFAULT_THROTTLE_POLICY, LoginThrottle, type ThrottlePolicy } from '../../../src/accounts/login-throttle.js';
import { ManualClock } from '../../../src/clock.js';

/**
 * The guessing protection's two promises (docs/security.md → Sign-in protection), over a real SQLite store with time
 * under the test's control, with the default policy unless a test says otherwise.
 */
const P = DEFAULT_THROTTLE_POLICY;
const DAY = 24 * 60 * 60 * 1000;

interface Fixture { store: Store; clock: ManualClock; throttle: LoginThrottle }

function fixture(t: Test, policy: ThrottlePolicy = P): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-throttle-'));
  const clock = new ManualClock(Date.UTC(2030, 0, 7, 9, 0, 0));
  const store = openSqliteStore(join(dir, 'lanyard.db'), clock);
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, clock, throttle: new LoginThrottle(store, clock, policy) };
}

let devices = 0;
/** A fresh signed device cookie (each is a new source). */
const newDevice = () => ({ id: `device-${String(++devices).padStart(15, '0')}`, signed: true });
const attempt = (o: Partial<Attempt> = {}): Attempt => ({
  factor: 'emoji', organisationId: 'o-north', username: 'pupil', device: newDevice(), ip: '10.0.0.1', ...o,
});

/** One attempt as the sign-in code makes it: begin, verify (`ok`), end. Returns the refusal, if any. */
async function tryOnce(throttle: LoginThrottle, a: Attempt, ok: boolean) {
  const begun = await throttle.begin(a);
  if (!begun.allowed) return begun;
  await throttle.end(begun.attempt, { ok, ...(ok ? { username: a.username } : {}) });
  return undefined;
}

t.test('an unknown device gets a few free tries, then short waits of its own', async (t) => {
  const { clock, throttle } = fixture(t);
  const mine = attempt();
  for (let i = 0; i < P.newDeviceFreeAttempts; i++) t.equal(await tryOnce(throttle, mine, false), undefined, `free failure ${i + 1}`);
  const refused = await tryOnce(throttle, mine, false);
  t.match(refused, { allowed: false, retryAfterSeconds: P.newDeviceBaseWaitSeconds, bucket: 'account' }, 'then a short wait');
  // The waits double but never pass newDeviceMaxWaitSeconds: a pupil on a new device is slowed, not locked out.
  // (Within the device's budget across accounts: deviceFailures in a window.)
  let longest = 0;
  for (let i = 0; i < P.deviceFailures - P.newDeviceFreeAttempts; i++) {
    const r = await throttle.check(mine);
    if (!r.allowed) {
      longest = Math.max(longest, r.retryAfterSeconds);
      clock.advance(r.retryAfterSeconds * 1000);
    }
    t.equal(await tryOnce(throttle, mine, false), undefined, `after waiting, failure ${i + 1} is verified`);
  }
  t.equal(longest, P.newDeviceMaxWaitSeconds, 'the longest wait is the short cap');
  t.same(await throttle.check(attempt()), { allowed: true }, 'another new device is not slowed by this one');
});

t.test('guessing from other devices never slows a known device, a trusted device or a fresh device', async (t) => {
  const { throttle } = fixture(t);
  const tablet = newDevice();
  t.equal(await tryOnce(throttle, attempt({ device: tablet }), true), undefined, 'the pupil signs in on their tablet: it is known now');
  // An attacker at the school's address: one device, then cookie-less, then a fresh device for every guess.
  const attackerDevice = newDevice();
  for (let i = 0; i < 30; i++) {
    await tryOnce(throttle, attempt({ device: attackerDevice }), false);
    await tryOnce(throttle, attempt({ device: undefined }), false);
    await tryOnce(throttle, attempt(), false);
  }
  t.same(await throttle.check(attempt({ device: tablet })), { allowed: true }, 'the known tablet is not slowed');
  t.same(await throttle.check(attempt({ device: undefined, trustedDeviceId: 'cart-1' })), { allowed: true }, 'a trusted classroom device is not slowed');
  t.same(await throttle.check(attempt()), { allowed: true }, 'a pupil on a fresh device is not slowed');
  t.match(await throttle.check(attempt({ device: attackerDevice })), { allowed: false }, "the attacker's own device waits");
  t.match(await throttle.check(attempt({ device: undefined })), { allowed: false }, "and so does the attacker's cookie-less address");
});

t.test('100 consecutive unknown-device failures stop that path until staff unlock it; known devices go on', async (t) => {
  const { throttle } = fixture(t);
  const tablet = newDevice();
  await tryOnce(throttle, attempt({ device: tablet }), true);
  for (let i = 0; i < P.newDeviceFailureCap; i++) {
    t.equal(await tryOnce(throttle, attempt({ ip: `198.51.100.${i % 250}` }), false), undefined, `failure ${i + 1}`);
  }
  const stopped = await throttle.check(attempt());
  t.match(stopped, { allowed: false, stopped: true, bucket: 'cap' }, 'the 101st unknown device is refused, whatever its source');
  t.match(await tryOnce(throttle, attempt(), true), { allowed: false, stopped: true }, 'even with the right secret (it is not verified)');
  t.same(await throttle.stoppedFactors('o-north', 'pupil'), ['emoji'], 'reported as stopped');
  t.same(await throttle.check(attempt({ device: tablet })), { allowed: true }, 'the known tablet still signs in');
  t.same(await throttle.check(attempt({ device: undefined, trustedDeviceId: 'cart-1' })), { allowed: true }, 'and a trusted device');
  t.same(await throttle.check(attempt({ factor: 'password' })), { allowed: true }, 'another method of the account is not stopped');
  await throttle.unlock('o-north', 'Pupil ');
  t.same(await throttle.check(attempt()), { allowed: true }, 'unlocked: new devices may try again');
  t.same(await throttle.stoppedFactors('o-north', 'pupil'), [], 'no longer stopped');
  t.same(await throttle.check(attempt({ device: tablet })), { allowed: true }, 'the tablet is still known');
});

t.test('a success restarts the count of consecutive failures at most once a day', async (t) => {
  const { clock, throttle } = fixture(t);
  const failMany = async (n: number) => { for (let i = 0; i < n; i++) await tryOnce(throttle, attempt({ ip: `203.0.113.${i % 250}` }), false); };
  await failMany(90);
  t.equal(await tryOnce(throttle, attempt(), true), undefined, 'the pupil signs in on a new device');
  await failMany(90);
  t.same(await throttle.check(attempt()), { allowed: true }, 'the success restarted the count');
  t.equal(await tryOnce(throttle, attempt(), true), undefined, 'the pupil signs in again the same day');
  await failMany(10);
  t.match(await throttle.check(attempt()), { allowed: false, stopped: true }, 'a second success the same day did not restart it');
  clock.advance(DAY);
  await throttle.unlock('o-north', 'pupil');
  t.same(await throttle.check(attempt()), { allowed: true }, 'staff unlock it');
});

t.test('a source that fails across many accounts waits; other sources do not', async (t) => {
  const { clock, throttle } = fixture(t);
  const sprayer = newDevice();
  for (let i = 0; i < P.deviceFailures; i++) {
    t.equal(await tryOnce(throttle, attempt({ device: sprayer, username: `pupil${i}` }), false), undefined, `account ${i}`);
  }
  const refused = await tryOnce(throttle, attempt({ device: sprayer, username: 'pupil-next' }), false);
  t.match(refused, { allowed: false, bucket: 'source' }, 'the sprayer waits for its window');
  t.ok(refused && !refused.allowed && refused.retryAfterSeconds <= P.windowSeconds, 'at most one window');
  t.same(await throttle.check(attempt({ username: 'pupil-next' })), { allowed: true }, 'another device at the same address does not');
  for (let i = 0; i < P.ipFailures; i++) await tryOnce(throttle, attempt({ device: undefined, username: `kid${i}` }), false);
  t.match(await throttle.check(attempt({ device: undefined, username: 'kid-next' })), { allowed: false, bucket: 'source' },
    'without a device cookie the address is the source, with its own budget');
  clock.advance(P.windowSeconds * 1000);
  t.same(await throttle.check(attempt({ device: sprayer, username: 'pupil-next' })), { allowed: true }, 'the window ends');
});

t.test('an unknown badge code counts against its source only', async (t) => {
  const { throttle } = fixture(t);
  const scanner = newDevice();
  const badge = (o: Partial<Attempt> = {}) => attempt({ factor: 'badge', username: undefined, device: scanner, ...o });
  for (let i = 0; i < P.badgeFailures; i++) t.equal(await tryOnce(throttle, badge(), false), undefined, `misread ${i + 1}`);
  t.match(await throttle.check(badge()), { allowed: false, bucket: 'badge' }, 'the scanning device waits');
  t.same(await throttle.check(badge({ device: newDevice() })), { allowed: true }, 'another device does not');
  t.same(await throttle.check(badge({ device: undefined, trustedDeviceId: 'cart-2' })), { allowed: true }, 'nor a trusted one');
});

t.test('a burst of guesses gets exactly the free tries; a burst of right answers all get through', async (t) => {
  const { throttle } = fixture(t);
  const device = newDevice();
  let verified = 0;
  const guesses = await Promise.all(Array.from({ length: 40 }, async () => {
    const begun = await throttle.begin(attempt({ device }));
    if (!begun.allowed) return begun;
    verified += 1;
    await throttle.end(begun.attempt, { ok: false });
    return undefined;
  }));
  t.equal(verified, P.newDeviceFreeAttempts, 'only the free tries were verified');
  t.equal(guesses.filter((g) => g && !g.allowed).length, 40 - P.newDeviceFreeAttempts, 'the rest were refused');
  const rights = await Promise.all(Array.from({ length: 30 }, () => tryOnce(throttle, attempt({ username: 'class-2b' }), true)));
  t.equal(rights.filter((r) => r === undefined).length, 30, '30 tablets signing in to one class account all succeed');
});

t.test('the guessing arithmetic holds: below one in a million per account per year', async (t) => {
  const { clock, throttle } = fixture(t);
  // The unknown-device path, with a fresh device and address for every guess, stopping one short of the cap
  // each day so that a pupil signing in on a new device restarts the count (the most restarts the policy
  // allows): count what gets verified in 30 days.
  let unknown = 0;
  for (let day = 0; day < 30; day++) {
    for (let i = 0; i < P.newDeviceFailureCap - 1; i++) if ((await tryOnce(throttle, attempt({ ip: `192.0.2.${i % 250}` }), false)) === undefined) unknown += 1;
    t.equal(await tryOnce(throttle, attempt({ username: 'pupil' }), true), undefined, `day ${day + 1}: the pupil signs in`);
    clock.advance(DAY);
  }
  t.ok(unknown <= 30 * P.newDeviceFailureCap, `${unknown} unknown-device guesses in 30 days`);
  // One known (or trusted) device, guessing as soon as it is allowed, for 7 days.
  const tablet = newDevice();
  await tryOnce(throttle, attempt({ username: 'other', device: tablet }), true);
  let known = 0;
  const end = clock.now().getTime() + 7 * DAY;
  while (clock.now().getTime() < end) {
    const r = await tryOnce(throttle, attempt({ username: 'other', device: tablet }), false);
    if (r) clock.advance(r.retryAfterSeconds * 1000);
    else known += 1;
  }
  // Every trusted classroom device of the school (a new one for each guess), for 7 days.
  let trusted = 0;
  const trustedEnd = clock.now().getTime() + 7 * DAY;
  for (let i = 0; clock.now().getTime() < trustedEnd; i++) {
    const r = await tryOnce(throttle, attempt({ username: 'third', device: undefined, trustedDeviceId: `tablet-${i}` }), false);
    if (r) clock.advance(r.retryAfterSeconds * 1000);
    else trusted += 1;
  }
  const perYear = (unknown / 30 + known / 7 + trusted / 7) * 366;
  const p = perYear / 84 ** 6;
  t.ok(p < 1e-6, `at most ${Math.round(perYear)} guesses a year through new devices, one known device and every classroom device: p = ${p.toExponential(2)}`);
  t.ok(known / 7 <= 40, `${(known / 7).toFixed(1)} guesses a day from one known device`);
});

t.test('all trusted classroom devices together share one count per account', async (t) => {
  const { throttle } = fixture(t);
  let verified = 0;
  for (let i = 0; i < 60; i++) {
    // A different tablet of the trolley each time, always under its own free attempts.
    if ((await tryOnce(throttle, attempt({ device: undefined, trustedDeviceId: `tablet-${i}` }), false)) === undefined) verified += 1;
  }
  t.equal(verified, P.trustedDevicesFreeAttempts, `sixty tablets get ${P.trustedDevicesFreeAttempts} guesses at one account, not sixty times that`);
  t.match(await throttle.check(attempt({ device: undefined, trustedDeviceId: 'tablet-new' })), { allowed: false, bucket: 'account' });
  t.same(await throttle.check(attempt({ device: undefined, trustedDeviceId: 'tablet-0', username: 'classmate' })), { allowed: true },
    'another account on the same tablets is not slowed');
});
