import t from 'tap';
import type { Page } from 'playwright-core';
import { assertSignedIn, browserSetUp, DESKTOP } from '../helpers/browser-flow.js';
import { answerCallback, openPage } from '../helpers/browser.js';
import { authorizationRequest, DEMO_CLIENT } from '../helpers/relying-party.js';
import { TEACHER } from '../helpers/sign-in.js';

/**
 * POST /oauth/authorize in Chromium, from another site, as an app that sends its sign-in by a form would
 * (OpenID Connect Core §3.1.2.1). Lanyard's session cookie is SameSite=Lax, so the browser leaves it off a
 * POST from another site; Lanyard answers the POST 303 with the GET form of the request, a top-level GET
 * navigation that carries it. So a teacher who has signed in once is not asked again, and `prompt=none`
 * works, as with GET.
 */

/** The app's own page, on a site of its own (answered inside the browser): a form POSTing the request to Lanyard. */
const APP_PAGE = 'http://school-app.example/start';

async function serveAppPage(page: Page, action: string, params: URLSearchParams) {
  const fields = [...params].map(([name, value]) => `<input type="hidden" name="${name}" value="${value.replace(/"/g, '&quot;')}">`).join('');
  await page.route(APP_PAGE, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html lang="en"><title>School app</title><form method="post" action="${action}">${fields}<button>Sign in with Lanyard</button></form></html>`,
  }));
}

/** Opens the app's page in a new tab of `page`'s browser (its cookies) and presses its button: where the browser goes. */
async function postFromTheApp(page: Page, authorize: string, params: URLSearchParams) {
  const tab = await page.context().newPage();
  const callback = await answerCallback(tab, DEMO_CLIENT.redirectUri);
  const visited: string[] = [];
  tab.on('framenavigated', (frame) => { if (frame === tab.mainFrame()) visited.push(frame.url()); });
  /** The Cookie header of each request to the authorization endpoint, by method. */
  const cookies: Record<string, string> = {};
  tab.on('request', async (r) => {
    if (new URL(r.url()).pathname === '/oauth/authorize') cookies[r.method()] = (await r.allHeaders()).cookie ?? '';
  });
  await serveAppPage(tab, authorize, params);
  await tab.goto(APP_PAGE);
  await tab.getByRole('button', { name: 'Sign in with Lanyard' }).click();
  return { tab, callback, visited, cookies };
}

t.test('a form POSTed from another site signs in, and keeps the session: no second sign-in, prompt=none works', async (t) => {
  const { lanyard, rp, req, browser } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, DESKTOP);
  const authorize = `${lanyard.url}/oauth/authorize`;

  const first = await postFromTheApp(page, authorize, req.url.searchParams);
  await first.tab.waitForURL(/\/interaction\//);
  t.equal(await first.tab.getByRole('heading', { level: 1 }).innerText(), 'Find your school', 'signed out: the sign-in begins');
  await first.tab.goto(`${first.tab.url()}/password?org=demo-school`);
  await first.tab.getByLabel('Username').fill(TEACHER.username);
  await first.tab.getByLabel('Password').fill(TEACHER.password);
  await first.tab.getByRole('button', { name: 'Sign in' }).click();
  await assertSignedIn(t, rp, req, await first.callback(), { givenName: 'Tess', type: 'employee' });

  const again = await authorizationRequest(rp);
  const second = await postFromTheApp(page, authorize, again.url.searchParams);
  await assertSignedIn(t, rp, again, await second.callback(), { givenName: 'Tess', type: 'employee' });
  t.notOk(second.visited.some((u) => new URL(u).pathname.includes('/password')), 'signed in already: no sign-in form on the way');
  t.notMatch(second.cookies.POST, /_session=/, 'why: the browser left the SameSite=Lax session cookie off the POST from another site');
  t.match(second.cookies.GET, /_session=/, 'and sent it with the GET Lanyard answered the POST with');

  const silent = await authorizationRequest(rp, { prompt: 'none' });
  const third = await postFromTheApp(page, authorize, silent.url.searchParams);
  const reached = await third.callback();
  t.equal(reached.searchParams.get('error'), null, 'prompt=none by POST: no login_required');
  await assertSignedIn(t, rp, silent, reached, { givenName: 'Tess', type: 'employee' });
  t.same(problems, [], 'no console errors or failed loads');
});
