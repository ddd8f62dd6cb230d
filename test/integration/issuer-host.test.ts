import t from 'tap';
import { ROUTES } from '../../src/routes.js';
import { demoAuthorizeUrl } from '../helpers/children.js';
import { startLanyard } from '../helpers/lanyard.js';
import { RawConnection } from '../helpers/raw-http.js';
import { routeTable } from '../helpers/route-table.js';

/**
 * The pages answer only under the issuer's host name (docs/operations.md → The address to open): with the
 * issuer http://localhost:PORT, a page asked for at http://127.0.0.1:PORT is sent to the issuer's origin, same
 * path and query, with no cookie set on the way; a form posted there is refused with a page saying where to go.
 * Programs' endpoints answer under any name as they did. Every route in Fastify's table is one or the other, so
 * a new page cannot be left out unnoticed.
 */

/** What programs call: told the issuer's URLs by discovery, they answer under any name. The rest are pages. */
const PROGRAMS = /^\/(oauth\/|\.well-known\/|api\/|developer\/api(\/|$)|school\/api(\/|$)|assets\/|healthz$|readyz$|livez$|metrics$)/;

const concrete = (path: string) => path.replace(/:[^/]+/g, 'x').replace(/\*$/, 'x');
const manual = { redirect: 'manual' as const };
const html = { accept: 'text/html' };

t.test('under another name: pages are sent to the issuer, before any cookie; programs answer as before', async (t) => {
  const lanyard = await startLanyard(t);
  const issuer = lanyard.url;
  const other = `http://127.0.0.1:${lanyard.config.port}`;
  t.equal(new URL(issuer).hostname, 'localhost', 'the issuer names localhost');

  const table = routeTable(lanyard.app);
  const pages = table.filter((r) => !PROGRAMS.test(r.path));
  t.ok(pages.some((r) => r.path === '/'), 'the front door is a page');
  t.ok(pages.some((r) => r.path.startsWith('/interaction/')), 'the sign-in screens are pages');
  t.ok(pages.some((r) => r.path.startsWith('/developer/')), 'the developer area is pages');
  t.ok(pages.some((r) => r.path === ROUTES.docs), 'the guide is a page');
  t.ok(pages.some((r) => r.path === ROUTES.classroomDevice), 'the classroom-device page is a page');
  t.ok(pages.some((r) => r.path === ROUTES.classLink) && pages.some((r) => r.path === `${ROUTES.classLink}/:code`), 'the class-link entry is pages');

  let asked = 0;
  for (const r of table) {
    const path = concrete(r.path);
    for (const method of r.methods.filter((m) => m === 'GET' || m === 'POST')) {
      const init = { ...manual, method, headers: { ...html, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(method === 'POST' ? { body: 'a=1' } : {}) };
      const query = method === 'GET' ? '?q=1&b=%C3%A9' : '';
      const res = await fetch(`${other}${path}${query}`, init);
      asked += 1;
      const what = `${method} ${r.path} under 127.0.0.1`;
      if (PROGRAMS.test(r.path)) {
        const there = await fetch(`${issuer}${path}${query}`, init);
        t.equal(res.status, there.status, `${what}: answers as under the issuer (${there.status})`);
        t.not(res.status, 307, `${what}: not sent to the issuer`);
        continue;
      }
      t.same(res.headers.getSetCookie(), [], `${what}: no cookie`);
      t.equal(res.headers.get('cache-control'), 'no-store', `${what}: not cached`);
      if (method === 'GET') {
        t.equal(res.status, 307, `${what}: 307 (temporary; the method kept)`);
        t.equal(res.headers.get('location'), `${issuer}${path}${query}`, `${what}: to the issuer's origin, same path and query`);
      } else {
        t.equal(res.status, 400, `${what}: 400, not a redirect that would drop or resend the form`);
        const page = await res.text();
        t.match(page, 'Open Lanyard at its own address', `${what}: a page that says so`);
        t.match(page, `href="${issuer}/"`, `${what}: with the issuer's address to open`);
      }
    }
  }
  t.ok(asked > 30, `${asked} routes asked under the other name`);

  // HEAD stays a HEAD, and the same redirect.
  const head = await fetch(`${other}/sign-in?org=demo-school`, { ...manual, method: 'HEAD' });
  t.equal(head.status, 307);
  t.equal(head.headers.get('location'), `${issuer}/sign-in?org=demo-school`);

  // Protocol endpoints oidc-provider answers (not in Fastify's table) and those answered before Fastify.
  const authorize = new URL(demoAuthorizeUrl(issuer));
  for (const path of [ROUTES.discovery, ROUTES.jwks, `${authorize.pathname}${authorize.search}`, ROUTES.userinfo, `${ROUTES.endSession}/confirm`]) {
    const [here, there] = await Promise.all([fetch(`${other}${path}`, manual), fetch(`${issuer}${path}`, manual)]);
    t.equal(here.status, there.status, `${path}: ${there.status} under either name`);
  }
  const token = await fetch(`${other}${ROUTES.token}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=x' });
  t.equal(token.status, 401, 'the token endpoint answers as ever (no client: 401)');

  // The issuer's name in another case or on another port is the same name (cookies ignore both).
  for (const host of [`LOCALHOST:${lanyard.config.port}`, 'localhost', 'LocalHost:1']) {
    const conn = await RawConnection.open(lanyard.config.port, host);
    const res = await conn.request('GET', '/', { accept: 'text/html' });
    conn.close();
    t.equal(res.status, 200, `Host: ${host} is the issuer's name`);
  }
  // X-Forwarded-Host is not believed without LANYARD_TRUST_PROXY.
  const forged = await fetch(`${other}/`, { ...manual, headers: { 'x-forwarded-host': `localhost:${lanyard.config.port}` } });
  t.equal(forged.status, 307, 'an untrusted X-Forwarded-Host changes nothing');
  const told = lanyard.logs.filter((l) => l.includes('"event":"request.other_host"')).map((l) => JSON.parse(l) as { level: number; host: string });
  t.same(told.map((l) => [l.level, l.host]), [[40, '127.0.0.1']], 'one warning line for the other name, however many pages were asked under it');
});

t.test('behind a trusted proxy: the host it names (X-Forwarded-Host) is the one compared', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_ISSUER: 'https://id.example.org', LANYARD_TRUST_PROXY: '1' } });
  const direct = `http://127.0.0.1:${lanyard.config.port}`;
  const named = async (host: string | undefined) => fetch(`${direct}/docs?x=1`, { ...manual, headers: host ? { 'x-forwarded-host': host } : {} });
  t.equal((await named('id.example.org')).status, 200, 'the issuer\'s name through the proxy: the page');
  t.equal((await named('ID.example.org:443')).status, 200, 'in any case, with the port');
  const elsewhere = await named('lanyard.internal');
  t.equal(elsewhere.status, 307, 'another name through the proxy: sent on');
  t.equal(elsewhere.headers.get('location'), 'https://id.example.org/docs?x=1', 'to the https issuer (the protocol is the issuer\'s)');
  t.equal((await named(undefined)).status, 307, 'no X-Forwarded-Host: the Host (127.0.0.1) is not the issuer\'s');
});

t.test('fuzz: odd Host headers never get a 5xx, and a redirect only ever names the issuer', async (t) => {
  const lanyard = await startLanyard(t);
  const port = lanyard.config.port;
  const hosts = [
    '', ' ', 'a'.repeat(4000), `localhost:${port}:${port}`, 'localhost:99999', 'localhost:', ':3300', '[::1]', `[::1]:${port}`, '[', ']',
    '[::1', 'LOCALHOST', 'localhost.', 'localhost..', '.localhost', '127.0.0.1:1', 'xn--e1afmkfd.example', 'ex ample', 'a@localhost',
    'localhost/../x', '%00', 'localhost%2F', '\u00e9xample', 'localhost\t', '*', '0', '::', 'user:pass@localhost', '"localhost"',
  ];
  const paths = ['/', '/docs', '/sign-in?org=demo-school', '/interaction/x', '/developer', '/classroom-device', '/healthz', '/.well-known/openid-configuration', '/api/user', '//evil.example/x'];
  const methods = ['GET', 'HEAD', 'POST'];
  let asked = 0;
  const fiveHundreds: string[] = [];
  for (const host of hosts) {
    let conn = await RawConnection.open(port, host);
    for (const path of paths) {
      for (const method of methods) {
        if (conn.closed) conn = await RawConnection.open(port, host);
        let res;
        if (method === 'POST') {
          // A form, whole, on a connection of its own (an answer before the body is read leaves it unread).
          const post = await RawConnection.open(port, host);
          post.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 3\r\n\r\na=1`);
          res = await post.readResponse('POST');
          post.close();
        } else {
          res = await conn.request(method, path);
        }
        asked += 1;
        if (res.status >= 500) fiveHundreds.push(`${method} ${path} Host ${JSON.stringify(host)}: ${res.status}`);
        const to = res.headers.get('location')?.[0];
        if (res.status === 307 && !to?.startsWith(`${lanyard.url}/`)) fiveHundreds.push(`${method} ${path} Host ${JSON.stringify(host)}: 307 to ${to}`);
      }
    }
    conn.close();
  }
  t.same(fiveHundreds, [], `${asked} requests with odd Host headers: no 5xx, no redirect elsewhere`);
  t.ok(asked >= 900, `${asked} requests`);
});
