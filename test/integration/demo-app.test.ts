import t, { type Test } from 'tap';
import { startDemoApp } from '../../src/demo/demo-app.js';
import { freePort, startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser, hiddenField, location } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';

/** Lanyard with the demo config, and the Demo App on a free port (LANYARD_DEMO_APP moves its redirect and logout URLs there). */
async function setUp(t: Test) {
  const port = await freePort();
  const lanyard = await startLanyard(t, { env: { LANYARD_DEMO_APP: String(port) } });
  t.same(lanyard.config.file.clients.find((c) => c.client_id === 'demo-app')?.redirect_uris, [`http://localhost:${port}/callback`], 'the callback moved');
  const demo = await startDemoApp({ issuer: lanyard.url, port, clientId: 'demo-app', clientSecret: 'demo-app-secret' });
  t.teardown(() => demo.close());
  return { lanyard, app: `http://localhost:${port}` };
}

t.test('the quick-start Demo App signs the teacher in and out through Lanyard', async (t) => {
  const { lanyard, app } = await setUp(t);

  const browser = new HttpBrowser();
  t.match(await (await browser.get(`${app}/`)).text(), /Sign in with Lanyard/);
  const authorize = location(await browser.get(`${app}/login`), app);
  t.equal(authorize.origin + authorize.pathname, `${lanyard.url}/oauth/authorize`);
  const callback = await signIn(browser, lanyard.url, authorize, TEACHER);
  const page = await (await browser.get(callback)).text();
  t.match(page, /Hello, Tess!/);
  t.match(page, /teacher@demo-school\.example/);
  t.match(page, /&quot;type&quot;: &quot;employee&quot;/, "claims shown, HTML-escaped");

  // A replayed callback is refused by the app (state is single-use).
  const replay = await browser.get(callback);
  t.equal(replay.status, 400);

  const out = location(await browser.get(`${lanyard.url}/oauth/logout?client_id=demo-app`), lanyard.url);
  t.equal(out.href, `${app}/signed-out`);
  t.match(await (await browser.get(out)).text(), /You are signed out/);
});

t.test('opened from the dashboard, as the quick start says, the Demo App is signed in: it takes a launch\'s code without state', async (t) => {
  const { lanyard, app } = await setUp(t);
  const browser = new HttpBrowser();
  const start = await browser.get(`${lanyard.url}/sign-in?org=demo-school`);
  await browser.get(await signIn(browser, lanyard.url, location(start, lanyard.url), TEACHER));
  const home = await (await browser.get(`${lanyard.url}/`)).text();
  t.match(home, /action="\/launch\/demo-app"/, 'the Demo App is a tile on the dashboard');
  const launch = await browser.post(`${lanyard.url}/launch/demo-app`, { csrf: hiddenField(home, 'csrf') });
  const authorize = location(launch, lanyard.url);
  t.equal(authorize.pathname, '/oauth/authorize', 'an authorization request with no scope, state or nonce');
  const callback = location(await browser.get(authorize), lanyard.url);
  t.equal(callback.origin + callback.pathname, `${app}/callback`, 'a code for its callback');
  t.notOk(callback.searchParams.has('state'), 'with no state');
  const page = await browser.get(callback);
  t.equal(page.status, 200);
  t.match(await page.text(), /Hello, Tess!/, 'signed in, its ID token verified');

  const replay = await browser.get(callback);
  t.equal(replay.status, 400, 'the same code again: refused, never a 500');
  t.match(await replay.text(), /Lanyard said invalid_grant/);
  t.match(await (await browser.get(`${app}/callback?state=forged&code=x`)).text(), /Unknown or repeated sign-in/, 'a state it did not make: refused');
});
