import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { writeConfig } from '../helpers/config-file.js';
import { storedId } from '../../adapters/record-ids.js';

const authorize = (issuer: string) =>
  `${issuer}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent('http://localhost:8080/callback')}&response_type=code&scope=openid`;

t.test('logout destroys the stored session and clears the cookie', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  await signIn(browser, lanyard.url, authorize(lanyard.url), TEACHER);
  const sessionId = browser.cookies.get('_session');
  t.ok(sessionId, 'signed in with a session cookie');
  t.ok(await lanyard.store.oidc.find('Session', storedId('Session', sessionId!)), 'session stored');

  const res = await browser.get(`${lanyard.url}/oauth/logout?client_id=demo-app`);
  t.equal(res.status, 303);
  t.equal(res.headers.get('location'), 'http://localhost:8080/signed-out', 'straight to logout_url');
  t.notOk(browser.cookies.has('_session'), 'cookie cleared');
  t.notOk(await lanyard.store.oidc.find('Session', storedId('Session', sessionId!)), 'stored session destroyed');

  // An old copy of the cookie is worthless now.
  const replay = new HttpBrowser();
  replay.cookies.set('_session', sessionId!);
  replay.cookies.set('_session.sig', 'whatever');
  const again = await replay.get(authorize(lanyard.url));
  t.match(again.headers.get('location'), /\/interaction\//);
});

t.test('HEAD /oauth/logout answers as GET would and signs nobody out (RFC 9110 §9.3.2: HEAD is safe)', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  await signIn(browser, lanyard.url, authorize(lanyard.url), TEACHER);
  const sessionId = browser.cookies.get('_session')!;
  const head = await fetch(`${lanyard.url}/oauth/logout?client_id=demo-app`, { method: 'HEAD', redirect: 'manual', headers: { cookie: browser.cookieHeader() } });
  t.equal(head.status, 303, 'the status GET gets');
  t.equal(head.headers.get('location'), 'http://localhost:8080/signed-out', 'and its address');
  t.same(head.headers.getSetCookie(), [], 'no cookie cleared');
  t.ok(await lanyard.store.oidc.find('Session', storedId('Session', sessionId)), 'the stored session is still there');
  const again = await browser.get(`${authorize(lanyard.url)}&prompt=none`);
  t.match(again.headers.get('location'), /^http:\/\/localhost:8080\/callback\?code=/, 'still signed in: prompt=none gives a code');

  // The GET that follows does sign out.
  t.equal((await browser.get(`${lanyard.url}/oauth/logout?client_id=demo-app`)).status, 303);
  t.notOk(await lanyard.store.oidc.find('Session', storedId('Session', sessionId)), 'GET: the stored session destroyed');
});

t.test('logout without a session still redirects', async (t) => {
  const lanyard = await startLanyard(t);
  const res = await fetch(`${lanyard.url}/oauth/logout?client_id=demo-app`, { redirect: 'manual' });
  t.equal(res.status, 303);
  t.equal(res.headers.get('location'), 'http://localhost:8080/signed-out');
});

t.test('logout errors: an error page, never a redirect', async (t) => {
  const config = writeConfig((c) => {
    c.clients.push({ client_id: 'no-logout', name: 'No Logout', secrets: ['no-logout-secret'], redirect_uris: ['https://app.example/cb'] });
  });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  for (const [query, text] of [
    ['', /client_id is missing/],
    ['?client_id=unknown-app', /not registered/],
    ['?client_id=no-logout', /no sign-out address/],
    ['?client_id=demo-app&client_id=no-logout', /more than once/],
  ] as const) {
    const res = await fetch(`${lanyard.url}/oauth/logout${query}`, { redirect: 'manual' });
    t.equal(res.status, 400, `400 for "${query}"`);
    t.equal(res.headers.get('location'), null, 'no redirect');
    t.match(res.headers.get('content-type'), /text\/html/);
    t.match(await res.text(), text);
  }
});

t.test('behind one trusted proxy the client cannot choose its own address', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_TRUST_PROXY: 'true' } });
  await fetch(`${lanyard.url}/healthz`, { headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' } });
  const line = lanyard.logs.find((l) => l.includes('"url":"/healthz"'))!;
  t.match(line, /"ip":"203\.0\.113\.7"/, 'the address the proxy saw (the last hop)');
  t.notMatch(line, /6\.6\.6\.6/, 'not what the client wrote in front of it');
});
