import t from 'tap';
import { isPublicAddress } from '../../../src/clients/public-address.js';

t.test('public addresses pass; loopback, private, link-local, shared, unique-local, multicast and reserved do not', async (t) => {
  for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8']) t.ok(isPublicAddress(a), a);
  for (const a of [
    '127.0.0.1', '127.8.8.8', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '192.0.2.1', '::', '::1', 'fe80::1', 'fd00::1', 'fc00::1', 'ff02::1', '2001:db8::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', '2002:7f00:1::', 'not an address', '',
  ]) t.notOk(isPublicAddress(a), a);
});
