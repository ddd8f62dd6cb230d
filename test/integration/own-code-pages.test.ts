import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { storedId } from '../../adapters/record-ids.js';
import { DEMO_BASIC_AUTH, DEMO_CLIENT, demoAuthorizationUrl } from '../helpers/relying-party.js';

/**
 * Lanyard's own pages that a sign-in comes back to (/sign-in/done, /classroom-device) spend the code they
 * receive, unused; they must spend only their own client's code (docs/security.md → Lanyard's own pages):
 * a code of any app sent there is left for the app to redeem.
 */
t.test('a page of Lanyard\'s own client never destroys another client\'s code', async (t) => {
  const lanyard = await startLanyard(t);
  const pupil = new HttpBrowser();
  const callback = await signIn(pupil, lanyard.url, demoAuthorizationUrl(lanyard.url, 'own-code'), TEACHER);
  const code = callback.searchParams.get('code')!;
  t.ok(code, 'the demo app got a code');

  const stranger = new HttpBrowser();
  for (const page of ['/sign-in/done', '/classroom-device']) {
    const res = await stranger.get(`${lanyard.url}${page}?code=${encodeURIComponent(code)}`);
    t.equal(res.status, 303, `${page} answers as before`);
    t.ok(await lanyard.store.oidc.find('AuthorizationCode', storedId('AuthorizationCode', code)), `${page} left the demo app's code alone`);
  }

  const exchange = await fetch(`${lanyard.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: DEMO_BASIC_AUTH, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: DEMO_CLIENT.redirectUri }),
  });
  t.equal(exchange.status, 200, 'the app still redeems its code');
  t.ok((await exchange.json() as { id_token?: string }).id_token);
});

t.test('the dashboard\'s own code is still spent at once', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const start = await browser.get(`${lanyard.url}/sign-in?org=demo-school`);
  const done = await signIn(browser, lanyard.url, location(start, lanyard.url), TEACHER);
  const code = done.searchParams.get('code')!;
  t.ok(await lanyard.store.oidc.find('AuthorizationCode', storedId('AuthorizationCode', code)), 'the code exists before the page is opened');
  const res = await browser.get(done);
  t.equal(res.status, 303);
  t.notOk(await lanyard.store.oidc.find('AuthorizationCode', storedId('AuthorizationCode', code)), 'spent, unused');
});
