import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { assertSignedIn, browserSetUp, THREE_SIZES } from '../helpers/browser-flow.js';
import { answerCallback, focused, openPage } from '../helpers/browser.js';
import { cardCode, useDemoApp } from '../helpers/help-codes.js';
import { hiddenField } from '../helpers/http-browser.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { authorizationRequest, DEMO_CLIENT } from '../helpers/relying-party.js';
import { consolePage, consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';

/**
 * Help codes in Chromium at a phone, a tablet and a Chromebook size (docs/childrens-sign-in.md → Help codes): a
 * teacher gives a code and sees it large (and printed, the card alone); the pupil, on another device, chooses
 * "I have a help code", types a wrong code, then the right one, and the app gets their ID token. Every page
 * screenshotted (test-artifacts/screenshots/help-code/), axe-clean, no wider than the screen.
 */

/** What is shown of the page besides the code card and what holds it (elements by tag). */
const ALL_BUT_THE_CARD = `[...document.querySelectorAll('body *')]
  .filter((e) => e.getClientRects().length > 0 && !e.closest('.help-code-card') && !e.contains(document.querySelector('.help-code-card')))
  .map((e) => e.tagName)`;

const look = (t: Test, page: Page, name: string, label: string) => screenshotAndCheck(t, page, `help-code/${name}`, label);

t.test('help codes in Chromium, at three sizes', async (t) => {
  const { lanyard, rp, browser } = await browserSetUp(t);
  const { url, store } = lanyard;
  const north = await putConsoleSchool(store, 'north', 'Northfield Primary');
  await useDemoApp(store, north.organisation.id);
  const teacherHttp = await consoleSignInAsStaff(url, north.teacher.credentials);

  for (const [i, [size, options]] of THREE_SIZES.entries()) {
    await t.test(size, async (t) => {
      const pupil = north.taught.pupils[i]!;
      // The teacher: the console's session of the HTTP sign-in above, in a browser of their own.
      const teacher = await openPage(t, browser, options);
      await teacher.page.context().addCookies([...teacherHttp.cookies].map(([name, value]) => ({ name, value, domain: 'localhost', path: '/' })));
      const list = (await consolePage(teacherHttp, `${url}/school/north/help-codes`)).html;
      const given = await teacher.page.request.post(`${url}/school/north/people/${pupil.id}/help-code`, {
        form: { csrf: hiddenField(list, 'csrf'), next: '/school/north/help-codes' }, maxRedirects: 0,
      });
      t.equal(given.status(), 303, 'the code is given (303)');
      await teacher.page.goto(new URL(given.headers().location!, url).href);
      const card = teacher.page.locator('.help-code-card');
      await card.waitFor();
      const code = cardCode(await teacher.page.content());
      t.match(code, /^\d{6}$/, 'the code on the card');
      const digits = teacher.page.locator('.help-code-digits');
      const px = await teacher.page.evaluate('parseFloat(getComputedStyle(document.querySelector(".help-code-digits")).fontSize)') as number;
      t.ok(px >= 48, `the digits are large (${px}px)`);
      const box = (await digits.boundingBox())!;
      t.ok(box.width <= options.viewport!.width, 'and fit the screen');
      await look(t, teacher.page, `${size}-01-code-card`, `the code card (${size})`);
      await teacher.page.emulateMedia({ media: 'print' });
      t.same(await teacher.page.evaluate(ALL_BUT_THE_CARD), [], 'printed: the card alone');
      await look(t, teacher.page, `${size}-02-code-card-printed`, `the code card as printed (${size})`);
      await teacher.page.emulateMedia({ media: 'screen' });
      t.ok(await teacher.page.getByRole('button', { name: 'Print' }).isVisible(), 'the Print button (JavaScript shows it)');
      await teacher.page.getByRole('link', { name: 'Done' }).click();
      await teacher.page.waitForURL(/\/school\/north\/help-codes$/);
      t.ok(await teacher.page.getByRole('cell', { name: `${pupil.givenName} ${pupil.familyName}`, exact: true }).isVisible(), 'listed with the school\'s codes');
      await look(t, teacher.page, `${size}-03-list`, `the school's help codes (${size})`);

      // The pupil, on another device.
      const { page, problems } = await openPage(t, browser, options);
      const req = await authorizationRequest(rp, { organisation: 'north' });
      const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);
      await page.goto(req.url.href);
      await page.getByRole('link', { name: /I have a help code/ }).waitFor();
      await look(t, page, `${size}-04-chooser`, `the chooser with a help code (${size})`);
      await page.getByRole('link', { name: /I have a help code/ }).click();
      await page.waitForURL(/\/help-code\?org=north$/);
      t.match(await focused(page), { tag: 'input', name: 'Your username' }, 'the username has the focus');
      await look(t, page, `${size}-05-help-code`, `the help-code screen (${size})`);
      const field = page.getByLabel('Help code');
      t.equal(await field.getAttribute('inputmode'), 'numeric');
      await page.getByLabel('Your username').fill(pupil.username);
      await field.fill(code === '999999' ? '111111' : '999999');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      t.match(await page.getByRole('alert').innerText(), 'That help code did not work');
      t.equal(await page.getByLabel('Your username').inputValue(), pupil.username, 'the username is kept');
      t.match(await focused(page), { tag: 'input', name: 'Help code' }, 'the focus is back on the code');
      await look(t, page, `${size}-06-wrong-code`, `a wrong code (${size})`);
      await field.fill(`${code!.slice(0, 3)} ${code!.slice(3)}`);
      await look(t, page, `${size}-07-code-typed`, `the code typed (${size})`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await assertSignedIn(t, rp, req, await callback(), { givenName: pupil.givenName, type: 'student' });
      t.same(problems, [], 'no console errors or failed requests');
      t.same(teacher.problems, [], 'none on the teacher\'s pages either');
    });
  }
});
