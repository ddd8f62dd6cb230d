import t from 'tap';
import { securityHeaders } from '../../src/http/hardening.js';
import { startLanyard } from '../helpers/lanyard.js';
import { DEMO_CALLBACK } from '../helpers/tokens.js';

/**
 * Every response carries the security headers (src/http/hardening.ts): Lanyard's pages, oidc-provider's,
 * JSON answers and errors, and what Fastify refuses before routing (a path that is not valid
 * percent-encoding, a path parameter over the router's limit), which once went out with none of them and
 * with the path repeated in the body.
 */

t.test('the security headers are on every kind of response', async (t) => {
  const lanyard = await startLanyard(t);
  const base = lanyard.url;
  const authorize = `${base}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(DEMO_CALLBACK)}&response_type=code&scope=openid`;
  const longParameter = `/interaction/${'a'.repeat(300)}/password`;
  const requests: [string, string, RequestInit?][] = [
    ['the front door', '/'],
    ['a sign-in page (oidc-provider, then Lanyard)', authorize],
    ["oidc-provider's error page (an unknown client)", '/oauth/authorize?client_id=nobody&response_type=code&scope=openid'],
    ['a token error (JSON)', '/oauth/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code' }) }],
    ['a page that does not exist', '/no-such-page'],
    ['a page that does not exist, asked for by a browser', '/no-such-page', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } }],
    ['the health check', '/healthz'],
    ['a path that is not valid percent-encoding', '/%'],
    ['a path parameter over the router’s limit', longParameter],
  ];
  const expected = securityHeaders(false);
  for (const [what, path, init] of requests) {
    const res = await fetch(path.startsWith('http') ? path : `${base}${path}`, { redirect: 'manual', ...init });
    const body = await res.text();
    for (const [name, value] of expected) t.equal(res.headers.get(name), value, `${what} (${res.status}): ${name}`);
    if (path === '/%' || path === longParameter) {
      t.equal(res.status, path === '/%' ? 400 : 414, `${what}: ${res.status}`);
      t.same(Object.keys(JSON.parse(body) as object), ['error', 'error_description'], `${what}: the OAuth error shape`);
      t.notMatch(body, /aaaa|%/, `${what}: nothing of the path in the answer`);
      t.equal(res.headers.get('cache-control'), 'no-store');
    }
  }
});

t.test('an address that is nothing: a page for a browser, the OAuth error shape for a program', async (t) => {
  const lanyard = await startLanyard(t);
  const page = await fetch(`${lanyard.url}/no-such-page`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  t.equal(page.status, 404);
  t.match(page.headers.get('content-type'), /^text\/html/);
  const html = await page.text();
  t.match(html, /<title>Page not found · Lanyard<\/title>/, 'a titled page');
  t.match(html, /<a class="button-link" href="\/"><span>Go to your school apps<\/span><\/a>/, 'with a way on');
  const program = await fetch(`${lanyard.url}/no-such-page`);
  t.equal(program.status, 404);
  t.same(await program.json(), { error: 'not_found', error_description: 'no such endpoint' }, 'no Accept: JSON, as before');
  const posted = await fetch(`${lanyard.url}/no-such-page`, { method: 'POST', headers: { accept: 'text/html' } });
  t.equal(posted.headers.get('content-type')?.startsWith('application/json'), true, 'a POST to nowhere: JSON (no form leads there)');
});
