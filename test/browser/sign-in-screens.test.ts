import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { actorOf } from '../../src/developer/actor.js';
import { browserSetUp, THREE_SIZES } from '../helpers/browser-flow.js';
import { openPage, wordsBroken } from '../helpers/browser.js';
import { developmentApp } from '../helpers/development-app.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { authorizationRequest } from '../helpers/relying-party.js';
import { TEACHER } from '../helpers/sign-in.js';

/**
 * Every screen of a sign-in, and the pages a sign-in (or a sign-out) can end on, at a phone, a tablet and a Chromebook size
 * (the flows' own tests take most of them at one size): each screenshotted, checked by axe-core, no wider
 * than the screen, and with buttons and fields a finger can hit (44 px high) where a finger is what there is.
 */

/** The visible buttons and fields of the page's main part lower than 44 px, by name (a visually hidden file input, 1 px, left out). */
const SMALL_TARGETS = `[...document.querySelectorAll('main button, main input:not([type=hidden]), main select, main .button-link')]
  .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 1 && e.getBoundingClientRect().height < 44)
  .map((e) => (e.getAttribute('aria-label') || e.textContent.trim() || e.name) + ' ' + Math.round(e.getBoundingClientRect().height) + 'px')`;

async function look(t: Test, page: Page, name: string, label: string): Promise<void> {
  await screenshotAndCheck(t, page, `sign-in-screens/${name}`, label);
  t.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${label}: one main heading`);
  if (!name.startsWith('chromebook')) t.same(await page.evaluate(SMALL_TARGETS), [], `${label}: buttons and fields at least 44 px high`);
}


/**
 * The signed-out page's button: "Continue" and "to" on one line, the host name after them. As flex items the
 * words and the host name once stood side by side, the words in a column of their own, or with no space between.
 */
const CONTINUE_TO_READS_ON = `(() => {
  const a = [...document.querySelectorAll('a.button-link')].find((e) => e.textContent.startsWith('Continue to'));
  const text = document.createTreeWalker(a, NodeFilter.SHOW_TEXT).nextNode();
  const box = (from, to) => { const r = document.createRange(); r.setStart(text, from); r.setEnd(text, to); return r.getBoundingClientRect(); };
  const host = a.querySelector('.breakable').getClientRects()[0];
  const to = box(9, 11);
  return Math.abs(box(0, 8).top - to.top) < 2 && (host.top > to.top + 2 || host.left > to.right + 2);
})()`;

t.test('the sign-in screens and where a sign-in can end, at a phone, a tablet and a Chromebook size', async (t) => {
  const { lanyard, rp, browser } = await browserSetUp(t);
  const dev = await developmentApp(lanyard);
  await dev.service.setLogoutUrl(actorOf(dev.owner), dev.clientId, 'https://tables-trainer.example/signed-out');
  for (const [size, options] of THREE_SIZES) {
    await t.test(size, async (t) => {
      const { page, problems } = await openPage(t, browser, options);
      const shot = (n: string, label: string) => look(t, page, `${size}-${n}`, `${label} (${size})`);
      const req = await authorizationRequest(rp);

      await page.goto(req.url.href);
      const interaction = new URL(page.url());
      t.match(interaction.pathname, /^\/interaction\/[\w-]+$/, 'authorize hands over to the hosted sign-in');
      await shot('01-find-your-school', 'the school picker');
      await page.getByLabel('School name').fill('demo');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/[?&]q=demo/);
      await shot('02-search-results', 'the search results');
      await page.getByRole('link', { name: 'Demo School' }).click();
      await page.waitForURL(/[?&]org=/);
      t.ok(await page.getByText('How do you sign in?').isVisible(), 'the ways to sign in');
      await shot('03-method-chooser', 'the method chooser');

      await page.getByRole('link', { name: /Emoji password/ }).click();
      await page.getByRole('group', { name: 'Emoji keyboard' }).waitFor();
      await shot('04-emoji-keyboard', 'the emoji keyboard');
      await page.goBack();

      await page.getByRole('link', { name: /Magic badge/ }).click();
      await page.locator('[data-scanner-status]').getByText('There is no camera here.').waitFor();
      await shot('05-badge-no-camera', 'the badge screen without a camera');
      await page.getByLabel('Type the code under the picture', { exact: true }).fill('BADG-EDEM-0000-0000-0000-0000-02');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('alert').waitFor();
      await shot('06-badge-refused', 'a refused badge');
      await page.goto(`${interaction.origin}${interaction.pathname}?org=demo-school`);

      await page.getByRole('link', { name: /Username and password/ }).click();
      await page.getByLabel('Username').waitFor();
      await shot('07-password-form', 'the password form');
      await page.getByLabel('Username').fill(TEACHER.username);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      await shot('08-wrong-password', 'a wrong password');

      const refused = await page.goto(`${lanyard.url}/oauth/authorize?client_id=no-such-app&response_type=code&scope=openid&redirect_uri=${encodeURIComponent('https://app.example/cb')}`);
      t.equal(refused?.status(), 400, 'an unknown app: 400');
      t.ok(await page.getByRole('link', { name: 'Go to your school apps' }).isVisible(), 'with a way on');
      await shot('09-unknown-app', 'the error page for an unknown app');
      const missing = await page.goto(`${lanyard.url}/nothing-here`);
      t.equal(missing?.status(), 404, 'an unknown address: 404');
      await shot('10-not-found', 'the not-found page');
      const expired = await page.goto(`${interaction.origin}${interaction.pathname.replace(/[\w-]+$/, 'long-gone')}`);
      t.equal(expired?.status(), 400, 'a sign-in that is over: 400, as for a lost cookie');
      t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Sign-in expired');
      await shot('11-sign-in-expired', 'the expired sign-in page');
      const logout = await page.goto(`${lanyard.url}/oauth/logout`);
      t.equal(logout?.status(), 400, 'a logout naming no app: 400');
      t.notMatch(await page.locator('main').innerText(), /client_id|id_token_hint/, 'a pupil reads no parameter names');
      t.match(await page.locator('main').innerText(), /has not signed you out\. To sign out, go to your school apps and press Sign out/, 'what to do to sign out all the same');
      t.match(await page.locator('details.for-adults').textContent(), /client_id is missing/, 'the problem folded away for the app’s developers');
      await shot('12-logout-refused', 'the refused logout page');
      // Each page a sign-in can end on has a way on: the school's apps, the front door.
      await page.getByRole('link', { name: 'Go to your school apps' }).click();
      await page.waitForURL(`${lanyard.url}/`);
      t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Find your school', 'the way on leads to the front door');
      const signedOut = await page.goto(`${lanyard.url}/oauth/logout?client_id=${encodeURIComponent(dev.clientId)}`);
      t.equal(signedOut?.status(), 200, 'a logout for an app in development: a page, not a redirect');
      t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'You are signed out');
      await shot('13-signed-out-development-app', 'the signed-out page of an app in development');
      t.ok(await page.getByRole('link', { name: 'Continue to tables-trainer.example' }).isVisible(), 'its logout URL one tap away');
      t.equal(await page.locator('a.button-link .breakable').count(), 1, 'the host name marked where it may break');
      t.ok(await page.evaluate(CONTINUE_TO_READS_ON), 'the button reads "Continue to …" in one run of words (not "Continue" over "to", the host beside them)');
      t.same(await wordsBroken(page, '.breakable > span', { afterHyphen: false }), [], 'its host name breaks only after a dot, never at its hyphen');
      t.same(problems, [], 'no console errors (CSP violations, script errors, failed loads) on the way');
    });
  }
});
