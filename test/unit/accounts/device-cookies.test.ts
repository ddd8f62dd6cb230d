import type { FastifyRequest } from 'fastify';
import t from 'tap';
import { classroomDeviceKey } from '../../../src/accounts/device-cookies.js';
import { signValue } from '../../../src/http/signed-value.js';

const request = (cookie: string | undefined, ip = '203.0.113.7') => ({ headers: cookie ? { cookie } : {}, ip }) as unknown as FastifyRequest;

t.test('a trusted classroom device spends its own budget; anything else spends its address’s', async (t) => {
  const key = classroomDeviceKey(['new-key', 'old-key']);
  const credential = signValue(['old-key'], 'classroom', 'org-1~device-9');
  t.equal(key(request(`a=b; lanyard_classroom=${credential}`)), 'classroom:org-1~device-9', 'signed under a configured key');
  t.equal(key(request('lanyard_classroom=org-1~device-9.forged')), 'ip:203.0.113.7', 'a forged credential counts as its address');
  t.equal(key(request(`lanyard_classroom=${signValue(['gone-key'], 'classroom', 'org-1~device-9')}`)), 'ip:203.0.113.7', 'a key no longer configured');
  t.equal(key(request(`lanyard_classroom=${signValue(['new-key'], 'device', 'org-1~device-9')}`)), 'ip:203.0.113.7', 'a value signed for another purpose');
  t.equal(key(request(undefined)), 'ip:203.0.113.7', 'no cookie');
});
