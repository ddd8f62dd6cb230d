import t from 'tap';
import { LogoFetcher } from '../../src/clients/logo-fetcher.js';
import { LOGO_HOST, PNG_1X1, PRIVATE_HOST, startLogoServer } from '../helpers/logo-server.js';

/** docs/security.md → App logos: fetched once, https only, public addresses only, small raster images only. */
t.test('a PNG (or GIF) over https is fetched: its bytes, type by magic bytes, and SHA-256', async (t) => {
  const server = await startLogoServer(t);
  const fetcher = new LogoFetcher(server.policy);
  const got = await fetcher.fetch(`${server.origin}/logo.png`);
  t.ok(got.ok, 'fetched');
  if (!got.ok) return;
  t.ok(got.logo.bytes.equals(PNG_1X1), 'the bytes');
  t.equal(got.logo.contentType, 'image/png');
  t.match(got.logo.hash, /^[0-9a-f]{64}$/, 'a SHA-256');
  const mislabelled = await fetcher.fetch(`${server.origin}/logo-mislabelled`);
  t.equal(mislabelled.ok && mislabelled.logo.contentType, 'image/png', 'the bytes decide, not the server\'s Content-Type');
  const gif = await fetcher.fetch(`${server.origin}/logo.gif`);
  t.equal(gif.ok && gif.logo.contentType, 'image/gif', 'GIF');
  const redirected = await fetcher.fetch(`${server.origin}/redirect?to=/logo.png`);
  t.equal(redirected.ok && redirected.logo.url, `${server.origin}/logo.png`, 'a redirect to an allowed https address is followed');
});

t.test('refused, each with a clear reason: not https, too big, not a raster image, SVG, an error status, too slow', async (t) => {
  const server = await startLogoServer(t);
  const fetcher = new LogoFetcher(server.policy);
  const cases: [string, RegExp][] = [
    [`http://${LOGO_HOST}:${server.port}/logo.png`, /https only/],
    [`https://user:pw@${LOGO_HOST}:${server.port}/logo.png`, /https only/],
    [`${server.origin}/big.png`, /larger than 256 KiB/],
    [`${server.origin}/big-chunked.png`, /larger than 256 KiB/],
    [`${server.origin}/logo.svg`, /PNG, JPEG, GIF or WebP.*SVG/],
    [`${server.origin}/page.html`, /PNG, JPEG, GIF or WebP/],
    [`${server.origin}/missing.png`, /HTTP status 404/],
    [`${server.origin}/slow.png`, /longer than 1 seconds/],
    [`${server.origin}/redirect?to=${encodeURIComponent(`http://${LOGO_HOST}:${server.port}/logo.png`)}`, /https only/],
    [`${server.origin}/loop`, /redirects more than 3 times/],
  ];
  for (const [url, reason] of cases) {
    const got = await fetcher.fetch(url);
    t.notOk(got.ok, `refused: ${url.replace(server.origin, '')}`);
    if (!got.ok) t.match(got.message, reason, reason.source);
  }
});

t.test('private addresses are refused: as written, behind a redirect, and behind a name that resolves to one', async (t) => {
  const server = await startLogoServer(t);
  const fetcher = new LogoFetcher(server.policy);
  const before = server.requests.length;
  for (const target of [
    `https://127.0.0.1:${server.port}/logo.png`, 'https://10.1.2.3/logo.png', 'https://169.254.169.254/latest/meta-data',
    'https://[::1]/logo.png', 'https://[::ffff:127.0.0.1]/logo.png', 'https://[fd00::1]/logo.png', 'https://192.168.1.1/logo.png',
  ]) {
    const direct = await fetcher.fetch(target);
    t.match(direct.ok ? '' : direct.message, /private or local address/, `as written: ${target}`);
    const redirected = await fetcher.fetch(`${server.origin}/redirect?to=${encodeURIComponent(target)}`);
    t.match(redirected.ok ? '' : redirected.message, /private or local address/, `behind a redirect: ${target}`);
  }
  const named = await fetcher.fetch(`https://${PRIVATE_HOST}/logo.png`);
  t.match(named.ok ? '' : named.message, /private or local address/, 'a name that resolves to 10.0.0.7');
  t.equal(server.requests.length - before, 7, 'only the redirects themselves reached the server');
});

t.test('production\'s policy (nothing set) refuses the loopback server, by name and by address', async (t) => {
  const server = await startLogoServer(t);
  const fetcher = new LogoFetcher();
  for (const url of [`https://localhost:${server.port}/logo.png`, `https://127.0.0.1:${server.port}/logo.png`]) {
    const got = await fetcher.fetch(url);
    t.match(got.ok ? '' : got.message, /private or local address/, url);
  }
  t.equal(server.requests.length, 0, 'nothing reached it');
});
