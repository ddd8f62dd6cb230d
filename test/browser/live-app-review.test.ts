import t from 'tap';
import { sandboxCredentials } from '../../src/developer/sandbox.js';
import { THREE_SIZES } from '../helpers/browser-flow.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { createDeveloper } from '../helpers/developer.js';
import { developmentApp } from '../helpers/development-app.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { liveApp } from '../helpers/live-app.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { authorizationRequest, relyingParty } from '../helpers/relying-party.js';
import { signIn } from '../helpers/sign-in.js';

/**
 * The pages of a live app's changes waiting for review (docs/developer-area.md → Changes to a live app), the
 * refusal a live app's member without a second factor sees, and the classroom-device page of a sandbox test
 * user (docs/security.md → Sign-in protection), in Chromium at a phone, a tablet and a Chromebook size, each
 * screenshot checked by axe.
 */

const HOMOGRAPH = 'https://аpple.com/cb';

t.test('a live app: a new callback URL and logout URL wait for review; a member without a second factor is kept out', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = await launchBrowser(t);
  const { owner: ada, clientId } = await liveApp(lanyard, {
    owner: 'Ada Owner', app: 'Reading Quest', callback: 'https://quest.example/cb', logoutUrl: 'https://quest.example/bye',
  });
  const session = ada.browser.cookies.get('lanyard_developer')!;
  const host = new URL(lanyard.url).hostname;

  for (const [size, options] of THREE_SIZES) {
    await t.test(size, async (t) => {
      const { page, problems } = await openPage(t, browser, options);
      await page.context().addCookies([{ name: 'lanyard_developer', value: session, domain: host, path: '/developer' }]);
      await page.goto(`${lanyard.url}/developer/apps/${clientId}/credentials`);
      if (size === 'phone') {
        await page.getByLabel('Add a callback URL').fill(HOMOGRAPH);
        await page.getByRole('button', { name: 'Add callback URL' }).click();
        await page.waitForURL(/credentials/);
        t.match(await page.getByRole('status').innerText(), /sent for review/i, 'the page says the URL waits for review');
      }
      const waiting = page.locator('#pending-redirect_uri');
      t.ok(await waiting.isVisible(), 'what waits is listed');
      t.match(await waiting.innerText(), /Waiting for review\.[\s\S]*аpple\.com\/cb[\s\S]*proposed by Ada Owner/);
      t.match(await waiting.innerText(), /as DNS spells it: xn--pple-43d\.com[\s\S]*Check this address: the host mixes writing systems/, 'the team sees the look-alike as the operator will');
      t.notMatch(await page.getByRole('list', { name: 'Callback URLs' }).innerText(), /аpple/, 'not among the callback URLs in effect');
      await screenshotAndCheck(t, page, `live-app-review/${size}-01-callback-waiting`, `${size}: a callback URL waiting for review`);

      await page.goto(`${lanyard.url}/developer/apps/${clientId}/logout-url`);
      if (size === 'phone') {
        await page.getByLabel('Change the logout URL').fill('https://quest.example/goodbye');
        await page.getByRole('button', { name: 'Save logout URL' }).click();
        await page.waitForURL(/logout-url/);
        t.match(await page.getByRole('status').innerText(), /Sent for review/);
      }
      t.match(await page.locator('.current').innerText(), /quest\.example\/bye$/, 'the approved logout URL stays in effect');
      t.match(await page.locator('#pending-logout_url').innerText(), /quest\.example\/goodbye/);
      await screenshotAndCheck(t, page, `live-app-review/${size}-02-logout-waiting`, `${size}: a logout URL waiting for review`);
      t.same(problems, [], 'no console errors');
    });
  }

  await t.test('withdrawn by the team', async (t) => {
    const { page } = await openPage(t, browser, THREE_SIZES[2]![1]);
    await page.context().addCookies([{ name: 'lanyard_developer', value: session, domain: host, path: '/developer' }]);
    await page.goto(`${lanyard.url}/developer/apps/${clientId}/logout-url`);
    await page.locator('#pending-logout_url').getByRole('button', { name: /Withdraw/ }).click();
    await page.waitForURL(/logout-url/);
    t.match(await page.getByRole('status').innerText(), /withdrawn/);
    t.equal(await page.locator('#pending-logout_url').count(), 0, 'nothing waits for the logout URL any more');
  });

  await t.test('a member without two-step sign-in', async (t) => {
    const bob = await createDeveloper(lanyard, { name: 'Bob Member' });
    await lanyard.store.putTeamMember({ clientId, developerId: bob.id, role: 'member', addedAt: new Date().toISOString() });
    for (const [size, options] of THREE_SIZES) {
      const { page } = await openPage(t, browser, options);
      await page.context().addCookies([{ name: 'lanyard_developer', value: bob.browser.cookies.get('lanyard_developer')!, domain: host, path: '/developer' }]);
      const res = await page.goto(`${lanyard.url}/developer/apps/${clientId}/credentials`);
      t.equal(res?.status(), 403, `${size}: 403`);
      t.match(await page.locator('main').innerText(), /turn on two-step sign-in/, `${size}: says what to do`);
      await screenshotAndCheck(t, page, `live-app-review/${size}-03-two-step-required`, `${size}: a live app needs two-step sign-in`);
    }
  });
});

t.test('the classroom-device page tells a sandbox test user they cannot mark devices', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = await launchBrowser(t);
  const app = await developmentApp(lanyard);
  const sandbox = await sandboxCredentials(lanyard.store);
  const teacher = sandbox.users.find((u) => u.username === 'teacher')!;
  const http = new HttpBrowser();
  const rp = await relyingParty(lanyard.url, app.clientId, app.secret);
  await signIn(http, lanyard.url, (await authorizationRequest(rp)).url, { username: 'teacher', password: teacher.password!, organisation: 'sandbox' });
  const cookies = [...http.cookies].map(([name, value]) => ({ name, value, url: lanyard.url }));
  for (const [size, options] of THREE_SIZES) {
    const { page } = await openPage(t, browser, options);
    await page.context().addCookies(cookies);
    await page.goto(`${lanyard.url}/classroom-device`);
    t.match(await page.locator('main').innerText(), /test users cannot mark classroom devices/, `${size}: says why`);
    t.equal(await page.getByLabel('A name for this device').count(), 0, `${size}: no form to mark the device`);
    await screenshotAndCheck(t, page, `live-app-review/${size}-04-classroom-sandbox-user`, `${size}: classroom device, sandbox test user`);
  }
});
