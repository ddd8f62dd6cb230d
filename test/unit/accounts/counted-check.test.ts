import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { countedCheck } from '../../../src/accounts/counted-check.js';
import { type Attempt, LoginThrottle } from '../../../src/accounts/login-throttle.js';
import { ManualClock } from '../../../src/clock.js';

/** What a counted check says of the device (the audit trail's device kind), over a real SQLite store. */
t.test('the device is a classroom device, one the account knows, or other; a refusal says which too', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-counted-'));
  const clock = new ManualClock(Date.UTC(2030, 0, 7, 9, 0, 0));
  const store = openSqliteStore(join(dir, 'lanyard.db'), clock);
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });
  const throttle = new LoginThrottle(store, clock);
  const tablet = { id: 'device-000000000000001', signed: true };
  const attempt = (o: Partial<Attempt> = {}): Attempt => ({ factor: 'emoji', organisationId: 'o-north', username: 'pupil', device: tablet, ip: '10.0.0.1', ...o });
  const check = (a: Attempt, ok: boolean) => countedCheck(throttle, a, { verify: async () => (ok ? 'pupil' : undefined), final: () => true });

  t.match(await check(attempt(), true), { outcome: 'passed', device: 'other' }, 'a first sign-in: other');
  t.match(await check(attempt(), true), { outcome: 'passed', device: 'known' }, 'then the device is known to the account');
  t.match(await check(attempt(), false), { outcome: 'failed', device: 'known' }, 'a failure on it too');
  t.match(await check(attempt({ username: 'other-pupil' }), false), { outcome: 'failed', device: 'other' }, 'not to another account');
  t.match(await check(attempt({ device: undefined, trustedDeviceId: 'cart-1' }), true), { outcome: 'passed', device: 'classroom' }, 'a classroom device');
  t.match(await check(attempt({ factor: 'badge', username: undefined, trustedDeviceId: 'cart-1' }), true), { device: 'classroom' }, 'a badge on one');
  const stranger = attempt({ device: { id: 'device-000000000000002', signed: true } });
  let last;
  for (let i = 0; i < 5; i += 1) last = await check(stranger, false);
  t.match(last, { outcome: 'throttled', device: 'other' }, 'refused: the device is said as well');
});
