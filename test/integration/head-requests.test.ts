import t from 'tap';
import { ROUTES } from '../../src/routes.js';
import { demoAuthorizeUrl } from '../helpers/children.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { type RawConnection as Connection, RawConnection, type RawResponse } from '../helpers/raw-http.js';
import { routeTable } from '../helpers/route-table.js';

/**
 * RFC 9110 §9.3.2: HEAD is GET without the content — the same status and headers, no body. A body after a
 * HEAD response is read by the client as the start of the next response, which breaks a keep-alive
 * connection. Every route is asked over one real keep-alive connection: Fastify's route table, the
 * provider's routes (mounted through middie), 404s, error pages rendered by oidc-provider and by Lanyard's
 * error handler, malformed requests, and the same again while the store is down.
 */

/**
 * Header values that legitimately differ between two answers: the date, fresh cookies, a fresh interaction
 * or a fresh random state in a redirect.
 */
function comparable(res: RawResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, values] of res.headers) {
    if (name === 'date') continue;
    if (name === 'set-cookie') out[name] = values.map((v) => v.split('=', 1)[0]).sort().join(', ');
    else if (name === 'location') {
      out[name] = values.join(', ').replace(/\/interaction\/[^/?]+/, '/interaction/UID').replace(/([?&](?:state|nonce|code)=)[^&]*/g, '$1X');
    }
    else out[name] = values.join(', ');
  }
  return out;
}

type Test = Pick<typeof t, 'equal' | 'same' | 'ok'>;

/**
 * HEAD then GET for `path` on `conn`: same status and headers, no body bytes after the HEAD. The browser's
 * cookies go to the sign-in screens only: elsewhere they would let the first request change what the
 * second finds (resuming an interaction restarts it).
 */
async function headLikeGet(t: Test, conn: Connection, path: string, cookie: string): Promise<RawResponse> {
  const headers: Record<string, string> = path.startsWith('/interaction/') ? { cookie } : {};
  const head = await conn.request('HEAD', path, headers);
  t.ok(await conn.quietFor(40), `HEAD ${path}: no body bytes`);
  const get = await conn.request('GET', path, headers);
  t.equal(head.status, get.status, `HEAD ${path}: the status GET gets (${get.status})`);
  // The metrics count the HEAD itself, so the GET's figures (and their length) are one request further on.
  const same = (res: RawResponse) => {
    const headers = comparable(res);
    if (path === '/metrics') delete headers['content-length'];
    // GET /oauth/logout ends the session and clears its cookie; a HEAD does neither (logout.test.ts).
    if (path.startsWith('/oauth/logout?client_id=demo-app')) delete headers['set-cookie'];
    return headers;
  };
  t.same(same(head), same(get), `HEAD ${path}: the headers GET gets`);
  t.ok(!conn.closed, `after ${path} the connection is still open`);
  return get;
}

t.test('HEAD is answered like GET, without a body, on every route', async (t) => {
  const lanyard = await startLanyard(t);
  const port = Number(new URL(lanyard.url).port);

  // A sign-in under way, for the routes that need one: its uid, and the browser's interaction cookies.
  const browser = new HttpBrowser();
  const uid = location(await browser.get(demoAuthorizeUrl(lanyard.url)), lanyard.url).pathname.split('/')[2]!;
  const cookie = browser.cookieHeader();

  const table = routeTable(lanyard.app);
  t.ok(table.some((r) => r.path === '/interaction/:uid/password'), 'the route table is read (nested routes too)');
  const gets = table.filter((r) => r.methods.includes('GET'));
  for (const r of gets) t.ok(r.methods.includes('HEAD'), `${r.path} answers HEAD`);

  const concrete = (path: string) => {
    const p = path.replace(':uid', uid).replace(':name', 'lanyard.css');
    return /^\/interaction\/[^/]+\/(password|emoji|badge)$/.test(p) ? `${p}?org=demo-school` : p;
  };
  const authorize = new URL(demoAuthorizeUrl(lanyard.url));
  const targets = [
    // Every GET route in Fastify's table, with real parameters.
    ...gets.map((r) => concrete(r.path)),
    `/interaction/${uid}?org=demo-school`,
    // Answered before Fastify (src/http/early-answers.ts), so not in its table.
    ROUTES.discovery, `${ROUTES.jwks}?x=1`,
    // The same routes answering errors: unknown interaction, asset, client; missing parameters.
    '/interaction/not-a-sign-in', '/interaction/not-a-sign-in/password', '/assets/nope.js',
    '/oauth/logout', '/oauth/logout?client_id=demo-app', '/oauth/logout?client_id=nobody',
    // The provider's routes (middie → oidc-provider), and its rendered error pages.
    `${authorize.pathname}${authorize.search}`, ROUTES.authorization, '/oauth/authorize?client_id=nobody&response_type=code',
    `${ROUTES.authorization}/not-a-sign-in`, ROUTES.token, ROUTES.userinfo, ROUTES.revocation,
    ROUTES.endSession, `${ROUTES.endSession}/confirm`,
    // 404s.
    '/nope', '/.well-known/nope', '/interaction/x/y/z',
    // Malformed: bad percent-encoding in the query and in the path, a repeated parameter.
    '/oauth/authorize?client_id=%zz', '/oauth/authorize?client_id=demo-app&client_id=demo-app', '/interaction/%zz',
    '/docs?x=%zz', '/%zz', '/oauth/logout?client_id=%zz',
    // The front door and the dashboard's routes (POST-only ones answer GET with 404).
    '/?q=demo', '/?change=1', '/sign-in?org=demo-school', '/sign-in?org=nowhere', '/sign-in/done?error=access_denied',
    '/launch/demo-app', '/sign-out',
    // The class-link entry: the form, and a code that opens nothing (404).
    ROUTES.classLink, `${ROUTES.classLink}/ABCDE-FGHJK`,
  ];
  for (const path of Object.values(ROUTES)) {
    t.ok(targets.some((p) => p === path || p.startsWith(`${path}?`) || p.startsWith(`${path}/`)), `${path} is asked`);
  }

  const conn = await RawConnection.open(port, new URL(lanyard.url).host); // the pages answer under the issuer's name
  t.teardown(() => conn.close());
  const statuses = new Map<string, number>();
  for (const path of targets) statuses.set(path, (await headLikeGet(t, conn, path, cookie)).status);
  t.equal(statuses.get('/oauth/authorize?client_id=%zz'), 400, 'a malformed authorize request is a 400 (and HEAD got it too)');
  t.equal(statuses.get('/nope'), 404);
  t.equal(statuses.get(ROUTES.userinfo), 401);
  t.equal(statuses.get(`/interaction/${uid}?org=demo-school`), 200);

  // Store down: 503s from Lanyard's error handler (a page), from the provider, and from readiness.
  await lanyard.store.close();
  const down = ['/oauth/logout?client_id=nobody', `${authorize.pathname}${authorize.search}`, '/readyz', `/interaction/${uid}/password?org=demo-school`];
  for (const path of down) statuses.set(`down ${path}`, (await headLikeGet(t, conn, path, cookie)).status);
  t.equal(statuses.get('down /oauth/logout?client_id=nobody'), 503, 'Lanyard\'s error handler answered 503');
  t.equal(statuses.get(`down ${authorize.pathname}${authorize.search}`), 503, 'the provider answered 503');
  t.equal(statuses.get('down /readyz'), 503);
  t.equal(conn.leftover().length, 0, 'nothing left over on the connection');
});

t.test('a HEAD the parser cannot read: 400, no body, the connection closed; the server carries on', async (t) => {
  const lanyard = await startLanyard(t);
  const port = Number(new URL(lanyard.url).port);
  for (const request of [
    'HEAD /oauth/authorize?client_id=\x7f HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    'HEAD /docs HTTP/1.1\r\nHost: 127.0.0.1\r\nNot a header\r\n\r\n',
  ]) {
    const conn = await RawConnection.open(port);
    t.teardown(() => conn.close());
    // First a good request, to show the bad one does not disturb what came before it on the connection.
    t.equal((await conn.request('HEAD', '/healthz')).status, 200);
    conn.write(request);
    const res = await conn.readResponse('HEAD');
    t.equal(res.status, 400, `${JSON.stringify(request.split('\r\n')[0])}: 400`);
    t.same(res.headers.get('connection'), ['close'], 'the answer says the connection ends');
    t.ok(await conn.waitClosed(2_000), 'and it does');
    t.equal(conn.leftover().length, 0, 'no body bytes after the headers');
  }
  const fresh = await RawConnection.open(port);
  t.teardown(() => fresh.close());
  const health = await fresh.request('GET', '/healthz');
  t.equal(health.status, 200, 'a new connection is served');
  t.equal(health.body.toString(), '{"status":"ok"}');
});
