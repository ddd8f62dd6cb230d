import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import t from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { classroomDeviceKey, DEVICE_KEY_CACHE_MS } from '../../../src/accounts/device-cookies.js';
import { TrustedDevices } from '../../../src/accounts/trusted-devices.js';
import { ManualClock } from '../../../src/clock.js';
import { signValue } from '../../../src/http/signed-value.js';

const request = (cookie: string | undefined, ip = '203.0.113.7') => ({ headers: cookie ? { cookie } : {}, ip }) as unknown as FastifyRequest;

/** Trusted devices kept in a real SQLite store of the test's own. */
function trustedDevices(t: { teardown(fn: () => unknown): void }): TrustedDevices {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-device-key-'));
  const store = openSqliteStore(join(dir, 'lanyard.db'), new ManualClock());
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });
  return new TrustedDevices(store, new ManualClock());
}

t.test('a trusted classroom device the store knows spends its own budget; anything else spends its address’s', async (t) => {
  const devices = trustedDevices(t);
  const device = await devices.add('org-1', 'Cart 9', { id: 'u1', username: 'teacher' });
  const other = await devices.add('org-1', 'Cart 10', { id: 'u1', username: 'teacher' });
  const key = classroomDeviceKey(['new-key', 'old-key'], devices);
  const credential = (id: string, keys = ['old-key'], purpose = 'classroom') => signValue(keys, purpose, `org-1~${id}`);

  t.equal(await key(request(`a=b; lanyard_classroom=${credential(device.id)}`)), `classroom:org-1~${device.id}`, 'signed under a configured key, known to the store');
  t.equal(await key(request(`lanyard_classroom=org-1~${device.id}.forged`)), 'ip:203.0.113.7', 'a forged credential counts as its address');
  t.equal(await key(request(`lanyard_classroom=${credential(device.id, ['gone-key'])}`)), 'ip:203.0.113.7', 'a key no longer configured');
  t.equal(await key(request(`lanyard_classroom=${credential(device.id, ['new-key'], 'device')}`)), 'ip:203.0.113.7', 'a value signed for another purpose');
  t.equal(await key(request(`lanyard_classroom=${credential('made-up-device')}`)), 'ip:203.0.113.7', 'correctly signed, but no such device in the store');
  t.equal(await key(request(undefined)), 'ip:203.0.113.7', 'no cookie');

  await devices.revoke('org-1', { id: other.id });
  t.equal(await key(request(`lanyard_classroom=${credential(other.id)}`)), 'ip:203.0.113.7', 'a revoked device counts as its address');
  const req = request(`lanyard_classroom=${credential(device.id)}`);
  t.equal(key(req), key(req), 'one store read per request, however many budgets ask');
});

t.test('what the store said of a credential is kept a few seconds, so sending it again costs no store read', async (t) => {
  const devices = trustedDevices(t);
  const device = await devices.add('org-1', 'Cart 9', { id: 'u1', username: 'teacher' });
  let reads = 0;
  const counted = { active: (org: string, id: string) => { reads += 1; return devices.active(org, id); } };
  let now = 1_000_000;
  const key = classroomDeviceKey(['k'], counted, undefined, () => now);
  const cookie = () => request(`lanyard_classroom=${signValue(['k'], 'classroom', `org-1~${device.id}`)}`);
  t.equal(await key(cookie()), `classroom:org-1~${device.id}`);
  for (let i = 0; i < 20; i += 1) await key(cookie());
  t.equal(reads, 1, 'one store read for 21 requests within the window');
  await devices.revoke('org-1', { id: device.id });
  now += DEVICE_KEY_CACHE_MS + 1;
  t.equal(await key(cookie()), 'ip:203.0.113.7', 'a revocation reaches the budgets once the window is over');
  t.equal(reads, 2);
});
