import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import type { Store } from '../../../adapters/store.js';
import { type Attempt, DEFAULT_THROTTLE_POLICY, LoginThrottle, type ThrottlePolicy } from '../../../src/accounts/login-throttle.js';
import { ManualClock } from '../../../src/clock.js';

/**
 * The guessing protection over a real SQLite store, with time under the test's control. A small policy:
 * 3 free failures, then 10 s doubling up to 60 s; budgets of 8 failures per IP, 12 per organisation and
 * 4 badge failures per device, in 5-minute windows.
 */
const POLICY: ThrottlePolicy = {
  freeAttempts: 3,
  baseWaitSeconds: 10,
  maxWaitSeconds: 60,
  ipFailures: 8,
  organisationFailures: 12,
  badgeFailures: 4,
  windowSeconds: 300,
};
/** Budgets out of the way, for tests of the per-account backoff alone. */
const NO_BUDGETS: ThrottlePolicy = { ...POLICY, ipFailures: 1e6, organisationFailures: 1e6, badgeFailures: 1e6 };
const ALLOWED = { allowed: true };
const DAY = 24 * 60 * 60 * 1000;

interface Fixture { store: Store; clock: ManualClock; throttle: LoginThrottle; dbPath: string; reopen(): LoginThrottle }

function fixture(t: Test, policy: ThrottlePolicy = POLICY): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-throttle-'));
  const dbPath = join(dir, 'lanyard.db');
  const clock = new ManualClock(Date.UTC(2030, 0, 7, 9, 0, 0));
  const open = () => {
    const store = openSqliteStore(dbPath, clock);
    return { store, throttle: new LoginThrottle(store, clock, policy) };
  };
  const f: Fixture = {
    ...open(),
    clock,
    dbPath,
    /** A restart: a new store and throttle on the same file (close the old store first). */
    reopen() {
      Object.assign(f, open());
      return f.throttle;
    },
  };
  t.teardown(async () => {
    await f.store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return f;
}

const attempt = (o: Partial<Attempt> = {}): Attempt => ({
  factor: 'emoji', organisationId: 'o-north', username: 'pupil', deviceId: 'new-device-1', ip: '10.0.0.1', ...o,
});

const blocked = (retryAfterSeconds: number, bucket: string) => ({ allowed: false, retryAfterSeconds, bucket });

/** Fails `n` times, each time checking first that the attempt was allowed (as the sign-in code does). */
async function failAllowed(t: Test, throttle: LoginThrottle, a: Attempt, n: number, what: string) {
  for (let i = 1; i <= n; i++) {
    t.same(await throttle.check(a), ALLOWED, `${what}: attempt ${i} allowed`);
    await throttle.failed(a);
  }
}

t.test('waitAfter: free attempts, then the base wait doubling up to the maximum', async (t) => {
  const { throttle } = fixture(t);
  t.same([0, 1, 2, 3, 4, 5, 6, 7, 50, 5000].map((n) => throttle.waitAfter(n)), [0, 0, 0, 10, 20, 40, 60, 60, 60, 60]);
});

t.test('per account: free attempts, then waits of 10, 20, 40, 60, 60 s, exact to the second', async (t) => {
  const { throttle, clock } = fixture(t, NO_BUDGETS);
  const a = attempt();
  await failAllowed(t, throttle, a, 3, 'free');
  for (const wait of [10, 20, 40, 60, 60]) {
    t.same(await throttle.check(a), blocked(wait, 'account'), `then ${wait} s to wait`);
    t.same(await throttle.check(attempt({ deviceId: 'new-device-2', ip: '10.9.9.9' })), blocked(wait, 'account'),
      'every new device shares the wait');
    t.same(await throttle.check(attempt({ deviceId: undefined })), blocked(wait, 'account'), 'so does no device cookie at all');
    t.same(await throttle.check(attempt({ username: ' PUPIL ', deviceId: 'new-device-3' })), blocked(wait, 'account'),
      'the username as typed, trimmed and in any case');
    clock.advance(wait * 1000 - 1);
    t.same(await throttle.check(a), blocked(1, 'account'), `1 ms before the ${wait} s are over: still waiting`);
    clock.advance(1);
    t.same(await throttle.check(a), ALLOWED, `after ${wait} s: allowed again`);
    await throttle.failed(a);
  }
  t.same(await throttle.check(attempt({ username: 'teacher' })), ALLOWED, 'another account is not affected');
  t.same(await throttle.check(attempt({ organisationId: 'o-south' })), ALLOWED, 'nor the same username elsewhere');
});

t.test('a success from a known device resets that device\'s count, and only that', async (t) => {
  const { throttle, clock } = fixture(t, NO_BUDGETS);
  const tablet = attempt({ deviceId: 'tablet' });
  await throttle.succeeded(tablet); // the classroom tablet: known for pupil from now on

  await failAllowed(t, throttle, tablet, 3, 'tablet');
  t.same(await throttle.check(tablet), blocked(10, 'account'), 'the tablet waits after its free attempts');
  t.same(await throttle.check(attempt()), ALLOWED, 'its failures are its own: new devices are not waiting');
  clock.advance(10_000);
  await throttle.failed(tablet);
  t.same(await throttle.check(tablet), blocked(20, 'account'), 'a fourth failure: 20 s');
  clock.advance(20_000);
  await throttle.succeeded(tablet);
  await failAllowed(t, throttle, tablet, 3, 'after the success: the free attempts again');
  t.same(await throttle.check(tablet), blocked(10, 'account'), 'and the base wait, not 40 s');

  // A success on one device hands no fresh attempts to the others (they may be the one guessing).
  const other = attempt({ deviceId: 'new-device-2' });
  await failAllowed(t, throttle, other, 3, 'new devices');
  clock.advance(10_000);
  await throttle.succeeded(attempt({ deviceId: 'laptop' }));
  await throttle.failed(other);
  t.same(await throttle.check(other), blocked(20, 'account'), 'new devices keep counting after a success on another device');
});

t.test('only the attacked factor is suspended', async (t) => {
  const { throttle } = fixture(t, NO_BUDGETS);
  const emoji = attempt({ factor: 'emoji' });
  await failAllowed(t, throttle, emoji, 3, 'emoji');
  t.same(await throttle.check(emoji), blocked(10, 'account'), 'emoji password throttled');
  t.same(await throttle.check(attempt({ factor: 'password' })), ALLOWED, 'the password of the same user, same device: allowed');
  t.same(await throttle.check(attempt({ factor: 'badge', username: undefined })), ALLOWED, 'a badge from the same device: allowed');
  await failAllowed(t, throttle, attempt({ factor: 'password' }), 2, 'password');
  t.same(await throttle.check(emoji), blocked(10, 'account'), 'password failures do not add to the emoji wait');
});

t.test('a known device keeps working while the account is locked for new devices', async (t) => {
  const { throttle, clock } = fixture(t, NO_BUDGETS);
  const tablet = attempt({ deviceId: 'tablet', ip: '10.0.0.5' });
  const attacker = (i: number) => attempt({ deviceId: `evil-${i}`, ip: `198.51.100.${i}` });

  await failAllowed(t, throttle, attacker(1), 3, 'attacker');
  t.same(await throttle.check(tablet), blocked(10, 'account'), 'before it ever signed in, the tablet is a new device: it waits too');
  clock.advance(10_000);
  t.same(await throttle.check(tablet), ALLOWED);
  await throttle.succeeded(tablet); // the pupil signs in: the tablet becomes known

  for (let i = 2; i <= 6; i++) {
    const wait = (await throttle.check(attacker(i)) as { retryAfterSeconds?: number }).retryAfterSeconds ?? 0;
    clock.advance(wait * 1000);
    await throttle.failed(attacker(i));
  }
  t.same(await throttle.check(attacker(7)), blocked(60, 'account'), 'new devices: locked at the maximum wait');
  t.same(await throttle.check(tablet), ALLOWED, 'the known tablet: allowed');
  t.same(await throttle.check({ ...tablet, factor: 'password' }), ALLOWED, 'for either secret');
  t.same(await throttle.check({ ...tablet, username: ' Pupil ' }), ALLOWED, 'however the name is typed');
  t.same(await throttle.check({ ...tablet, username: 'teacher' }), ALLOWED, 'the tablet for another account: its own count');
  await failAllowed(t, throttle, attempt({ username: 'teacher', deviceId: 'evil-1' }), 3, 'teacher attacked');
  t.same(await throttle.check({ ...tablet, username: 'teacher' }), blocked(10, 'account'),
    'known for pupil is not known for teacher: a new device there');
  await failAllowed(t, throttle, tablet, 3, 'the pupil mistyping on the tablet');
  t.same(await throttle.check(tablet), blocked(10, 'account'), 'the tablet has its own backoff');
  t.same(await throttle.check(attacker(8)), blocked(60, 'account'), 'which does not touch the new devices\' count');
});

t.test('an unknown username is throttled exactly like a real one', async (t) => {
  const { throttle, clock, store } = fixture(t, NO_BUDGETS);
  const org = await store.upsertOrganisation({ slug: 'north', name: 'North School' });
  await store.upsertUser({ organisationId: org.id, username: 'pupil', givenName: 'Pip', familyName: 'Pupil', type: 'student' });
  const verdicts: Record<string, unknown[]> = { pupil: [], ghost: [] };
  for (let round = 0; round < 12; round++) {
    for (const username of ['pupil', 'ghost']) {
      const a = attempt({ organisationId: org.id, username, deviceId: `d-${username}`, ip: `10.1.0.${round}` });
      const v = await throttle.check(a);
      verdicts[username]!.push(v);
      if (v.allowed) await throttle.failed(a);
    }
    clock.advance(15_000);
  }
  t.same(verdicts.ghost, verdicts.pupil, 'the same verdicts, round after round');
  t.ok(verdicts.pupil!.some((v) => (v as { allowed: boolean }).allowed) && verdicts.pupil!.some((v) => !(v as { allowed: boolean }).allowed),
    'some allowed, some throttled');
});

t.test('per IP: a spray across many accounts from new devices is stopped; known devices are exempt', async (t) => {
  const { throttle, clock } = fixture(t);
  const ip = '203.0.113.9';
  const tablet = attempt({ username: 'pupil', deviceId: 'tablet', ip });
  await throttle.succeeded(tablet);
  await failAllowed(t, throttle, tablet, 2, 'known tablet (not counted against the IP)');

  for (let i = 1; i <= 8; i++) await failAllowed(t, throttle, attempt({ username: `user-${i}`, deviceId: `d-${i}`, ip }), 1, `user-${i}`);
  t.same(await throttle.check(attempt({ username: 'user-9', deviceId: 'd-9', ip })), blocked(300, 'ip'),
    'after 8 failures from new devices, the IP waits for the window');
  t.same(await throttle.check(attempt({ username: 'user-1', deviceId: 'd-1', ip })), blocked(300, 'ip'),
    'an account with one failure, from that IP: blocked');
  t.same(await throttle.check(attempt({ factor: 'badge', username: undefined, deviceId: 'scanner', ip })), blocked(300, 'ip'),
    'badges from that IP too');
  t.same(await throttle.check(attempt({ username: 'user-9', deviceId: 'd-9', ip: '203.0.113.10' })), ALLOWED, 'another IP: allowed');
  t.same(await throttle.check(tablet), ALLOWED, 'the known tablet on the same IP: allowed');
  clock.advance(300_000);
  t.same(await throttle.check(attempt({ username: 'user-9', deviceId: 'd-9', ip })), ALLOWED, 'after the window: allowed');
});

t.test('per organisation: a spray from many IPs is stopped; other organisations and known devices are not', async (t) => {
  const { throttle } = fixture(t);
  const tablet = attempt({ username: 'pupil', deviceId: 'tablet', ip: '10.0.0.5' });
  await throttle.succeeded(tablet);
  for (let i = 1; i <= 11; i++) {
    await failAllowed(t, throttle, attempt({ username: `user-${i}`, deviceId: `d-${i}`, ip: `198.51.100.${i}` }), 1, `user-${i}`);
  }
  const next = attempt({ username: 'user-13', deviceId: 'd-13', ip: '198.51.100.13' });
  t.same(await throttle.check(next), ALLOWED, '11 failures: still allowed');
  await failAllowed(t, throttle, attempt({ username: 'user-12', deviceId: 'd-12', ip: '198.51.100.12' }), 1, 'user-12');
  t.same(await throttle.check(next), blocked(300, 'organisation'), '12 failures: new devices wait for the window');
  t.same(await throttle.check({ ...next, factor: 'password' }), blocked(300, 'organisation'), 'whatever the secret');
  t.same(await throttle.check({ ...next, organisationId: 'o-south' }), ALLOWED, 'another organisation: allowed');
  t.same(await throttle.check(tablet), ALLOWED, 'a known device of the organisation: allowed');
});

t.test('badges: failures count per device, or per IP without one, and never per account', async (t) => {
  const { throttle, dbPath } = fixture(t);
  const badge = (deviceId: string | undefined, ip: string): Attempt => ({ factor: 'badge', organisationId: 'o-north', deviceId, ip });

  await failAllowed(t, throttle, badge('scanner-1', '10.2.0.1'), 4, 'scanner-1');
  t.same(await throttle.check(badge('scanner-1', '10.2.0.1')), blocked(300, 'badge'), 'the device is stopped after 4');
  t.same(await throttle.check(badge('scanner-1', '10.2.0.2')), blocked(300, 'badge'), 'wherever it goes');
  t.same(await throttle.check(badge('scanner-2', '10.2.0.1')), ALLOWED, 'another device on the same IP: allowed');

  await failAllowed(t, throttle, badge(undefined, '10.3.0.1'), 4, 'no device cookie');
  t.same(await throttle.check(badge(undefined, '10.3.0.1')), blocked(300, 'badge'), 'without a device: the IP is stopped after 4');
  t.same(await throttle.check(badge(undefined, '10.3.0.2')), ALLOWED, 'another IP without a device: allowed');
  t.same(await throttle.check(badge('scanner-3', '10.3.0.1')), ALLOWED, 'a device on that IP: its own count');

  for (const factor of ['emoji', 'password'] as const) {
    for (const ip of ['10.2.0.1', '10.3.0.1']) {
      t.same(await throttle.check(attempt({ factor, username: 'pupil', deviceId: 'scanner-1', ip })), ALLOWED,
        `${factor} sign-in from the same device/IP: allowed (no account was charged)`);
    }
  }
  const db = new Database(dbPath, { readonly: true });
  const keys = (db.prepare('SELECT key FROM counters').all() as { key: string }[]).map((r) => r.key);
  db.close();
  t.ok(keys.length > 0, 'counters were written');
  t.same(keys.filter((k) => k.startsWith('account:') || k.includes('pupil')), [], 'no counter names an account');

  // The badge failures still count against the IP budget (8): four more from another device fill it.
  await failAllowed(t, throttle, badge('scanner-2', '10.2.0.1'), 4, 'scanner-2');
  t.same(await throttle.check(attempt({ deviceId: 'new-device', ip: '10.2.0.1' })), blocked(300, 'ip'),
    'eight badge failures from one IP: new devices there wait');
});

t.test('counters survive a restart (the store closed and opened again)', async (t) => {
  const f = fixture(t, NO_BUDGETS);
  const tablet = attempt({ deviceId: 'tablet' });
  await f.throttle.succeeded(tablet);
  await failAllowed(t, f.throttle, attempt(), 3, 'before the restart');
  f.clock.advance(4_000);
  t.same(await f.throttle.check(attempt()), blocked(6, 'account'));
  await f.store.close();

  const throttle = f.reopen();
  t.same(await throttle.check(attempt()), blocked(6, 'account'), 'after the restart: the same wait');
  t.same(await throttle.check(tablet), ALLOWED, 'the tablet is still known');
  f.clock.advance(6_000);
  await throttle.failed(attempt());
  t.same(await throttle.check(attempt()), blocked(20, 'account'), 'and the count goes on from where it was');
});

t.test('counters expire after their window', async (t) => {
  const { throttle, clock } = fixture(t);
  const ip = '203.0.113.50';
  for (let i = 1; i <= 8; i++) await failAllowed(t, throttle, attempt({ username: `u${i}`, deviceId: `d${i}`, ip, organisationId: `org-${i}` }), 1, `u${i}`);
  const probe = attempt({ username: 'u9', deviceId: 'd9', ip });
  t.same(await throttle.check(probe), blocked(300, 'ip'));
  clock.advance(299_999);
  t.same(await throttle.check(probe), blocked(1, 'ip'), '1 ms before the window ends: still blocked');
  clock.advance(1);
  t.same(await throttle.check(probe), ALLOWED, 'the IP budget is over with its window');
  await failAllowed(t, throttle, probe, 1, 'a failure after the window');
  t.same(await throttle.check(attempt({ username: 'u10', deviceId: 'd10', ip })), ALLOWED, 'starts a new count (1 of 8)');

  // The account backoff is counted for a day from its first failure.
  const a = attempt({ username: 'pupil', ip: '10.0.0.1', organisationId: 'o-day' });
  await failAllowed(t, throttle, a, 3, 'pupil');
  for (let i = 0; i < 4; i++) {
    clock.advance(((await throttle.check(a)) as { retryAfterSeconds: number }).retryAfterSeconds * 1000);
    await throttle.failed(a);
  }
  t.same(await throttle.check(a), blocked(60, 'account'), '7 failures: the maximum wait');
  clock.advance(DAY);
  await failAllowed(t, throttle, a, 3, 'a day later: free attempts again');
  t.same(await throttle.check(a), blocked(10, 'account'), 'and the base wait');
});

t.test('a device in regular use stays known', async (t) => {
  const { throttle, clock } = fixture(t, NO_BUDGETS);
  const tablet = attempt({ deviceId: 'tablet' });
  await throttle.succeeded(tablet);
  for (let day = 1; day < 180; day++) {
    clock.advance(DAY);
    await throttle.succeeded(tablet); // the pupil signs in on it every day
  }
  clock.advance(DAY + 60 * 60 * 1000); // day 180, an hour before today's sign-in
  await failAllowed(t, throttle, attempt(), 3, 'someone guessing elsewhere');
  t.same(await throttle.check(attempt()), blocked(10, 'account'), 'new devices wait');
  t.same(await throttle.check(tablet), ALLOWED, '180 days after its first sign-in, the tablet in daily use is still known');

  clock.advance(181 * DAY);
  await failAllowed(t, throttle, attempt({ deviceId: 'new-device-9' }), 3, 'guessing, half a year later');
  t.same(await throttle.check(tablet), blocked(10, 'account'), 'unused for over 180 days, it is a new device again');
});

t.test('a broken store rejects, so that sign-in can fail closed', async (t) => {
  const { throttle, store } = fixture(t);
  await store.close();
  await t.rejects(throttle.check(attempt()), 'check rejects');
  await t.rejects(throttle.check(attempt({ deviceId: undefined })), 'check rejects without a device');
  await t.rejects(throttle.check(attempt({ factor: 'badge', username: undefined })), 'check of a badge rejects');
  await t.rejects(throttle.failed(attempt()), 'failed rejects');
  await t.rejects(throttle.succeeded(attempt()), 'succeeded rejects');
});

t.test('begin/end: a burst of parallel guesses gets no more through than the free attempts', async (t) => {
  const { store, clock, throttle } = fixture(t, { ...DEFAULT_THROTTLE_POLICY, freeAttempts: 5 });
  const guessed = { factor: 'emoji' as const, organisationId: 'o1', username: 'pip', ip: '10.0.0.1' };
  // Forty wrong guesses at once: each is begun, "verified" (wrong) and ended, all in parallel.
  const guess = async () => {
    const b = await throttle.begin(guessed);
    if (!b.allowed) return false;
    await new Promise((resolve) => setTimeout(resolve, 5)); // the (slow) verification
    await throttle.end(b.attempt, { ok: false });
    return true;
  };
  const verified = (await Promise.all(Array.from({ length: 40 }, guess))).filter(Boolean).length;
  t.equal(verified, 5, 'exactly the free attempts are verified');
  const after = await throttle.check(guessed);
  t.equal(after.allowed, false, 'then the account waits');
  t.equal(after.allowed ? 0 : after.retryAfterSeconds, 30, 'the first wait, not a longer one: refused attempts were taken back');
  clock.advance(30_000);
  const next = await throttle.begin(guessed);
  t.equal(next.allowed, true, 'after the wait, one more attempt');
  const success = next.allowed ? next.attempt : undefined;
  await throttle.end(success!, { ok: true, username: 'pip' });
  t.equal((await store.peekCounter('ip:10.0.0.1'))?.count, 5, 'a success is not counted against the address');
});

t.test('begin/end: a burst of right answers on one account (a shared class account) all go through', async (t) => {
  const { store, throttle } = fixture(t, { ...DEFAULT_THROTTLE_POLICY, freeAttempts: 5, ipFailures: 10 });
  const sign = async (i: number) => {
    const b = await throttle.begin({ factor: 'password', organisationId: 'o1', username: 'class3', deviceId: `tablet-${i}`, ip: '10.0.0.9' });
    if (!b.allowed) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await throttle.end(b.attempt, { ok: true, username: 'class3' });
    return true;
  };
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => sign(i)));
  t.equal(results.filter(Boolean).length, 30, 'thirty tablets sign in at once');
  t.equal((await store.peekCounter('ip:10.0.0.9'))?.count ?? 0, 0, 'successes do not use up the address budget');
});
