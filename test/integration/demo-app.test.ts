import t from 'tap';
import { startDemoApp } from '../../src/demo/demo-app.js';
import { freePort, startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { writeConfig } from '../helpers/config-file.js';

t.test('the quick-start Demo App signs the teacher in and out through Lanyard', async (t) => {
  const port = await freePort();
  const config = writeConfig((c) => {
    c.clients[0]!.redirect_uris = [`http://localhost:${port}/callback`];
    c.clients[0]!.logout_url = `http://localhost:${port}/signed-out`;
  });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const demo = await startDemoApp({ issuer: lanyard.url, port, clientId: 'demo-app', clientSecret: 'demo-app-secret' });
  t.teardown(() => demo.close());
  const app = `http://localhost:${port}`;

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
