import t from 'tap';
import { sameHostName, wrongAddressPage } from '../../../src/web/issuer-host.js';

t.test('the issuer\'s host name: any case, any port; another name, a trailing dot or nothing is not it', async (t) => {
  const issuer = new URL('http://localhost:3300').hostname;
  t.ok(sameHostName('localhost', issuer));
  t.ok(sameHostName('LocalHost', issuer), 'case does not matter');
  for (const other of ['127.0.0.1', 'localhost.', '', 'localhost:3300', 'xlocalhost', '[::1]']) {
    t.notOk(sameHostName(other, issuer), JSON.stringify(other));
  }
  t.ok(sameHostName('[::1]', new URL('http://[::1]:3300').hostname), 'an IPv6 issuer, bracketed as Fastify names it');
});

t.test('a form sent under another name: a page naming the address to open, escaped', async (t) => {
  const page = wrongAddressPage('https://id.example.org');
  t.match(page, 'Open Lanyard at its own address');
  t.match(page, 'href="https://id.example.org/"');
  t.match(page, 'wrong_address');
});
