import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import t from 'tap';
import { hashCredential } from '../../src/accounts/credential-hasher.js';
import { issueBadge } from '../../src/badges/badges.js';
import { signInAs } from '../helpers/account-session.js';
import { launchBrowser, openPage, tabTo } from '../helpers/browser.js';
import { classConsole, type ClassConsole, lockOut } from '../helpers/class-console.js';
import { screenshotAndCheck } from '../helpers/page-check.js';

/**
 * A teacher's class and pupil pages in Chromium (docs/school-console.md → Your classes, Helping a pupil) at a
 * phone's, a tablet's and a Chromebook's size: each page screenshotted (test-artifacts/screenshots/school-console/),
 * checked by axe (no serious or critical violation) and never wider than the screen; and, without a mouse,
 * pupils ticked and an action chosen from the keyboard, and a new emoji password shown once.
 */

const SIZES: readonly [string, BrowserContextOptions][] = [
  ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['tablet', { viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['chromebook', { viewport: { width: 1366, height: 768 } }],
];

/** The teacher's console session, handed to Chromium (the cookies the HTTP sign-in got). */
async function signedInPage(t: Parameters<typeof openPage>[0], c: ClassConsole, browser: Browser, options: BrowserContextOptions): Promise<{ page: Page; problems: string[] }> {
  const opened = await openPage(t, browser, options);
  const { hostname } = new URL(c.lanyard.url);
  await opened.page.context().addCookies([...c.browser.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: '/' })));
  return opened;
}

t.test('the class page and a pupil\'s page at three sizes, keyboard-operable and axe-clean', async (t) => {
  const c = await classConsole(t);
  const [ada, ben, chloe] = c.taught.pupils;
  await c.lanyard.store.setCredential(ada!.id, 'emoji', await hashCredential('dog,dog,dog,dog,dog,dog'));
  await signInAs(c.lanyard.url, { emoji: Array(6).fill('dog'), username: ada!.username });
  await issueBadge(c.lanyard.store, ben!);
  await lockOut(c.lanyard.url, chloe!.username);
  const browser = await launchBrowser(t);
  const classUrl = c.at(`/classes/${c.taught.class.id}`);

  for (const [size, options] of SIZES) {
    await t.test(size, async (t) => {
      const { page, problems } = await signedInPage(t, c, browser, options);
      await page.goto(classUrl);
      t.equal(await page.locator('h1').textContent(), 'Class 3B');
      await screenshotAndCheck(t, page, `school-console/class-${size}`, `the class page (${size})`);

      await page.goto(`${classUrl}?q=chloe`);
      await screenshotAndCheck(t, page, `school-console/class-search-${size}`, `a search by name (${size})`);

      // Without a mouse: tick two pupils, then choose Print emoji cards.
      await page.goto(classUrl);
      for (const pupil of [ada!, chloe!]) {
        const box = await tabTo(page, new RegExp(`^Choose ${pupil.givenName} ${pupil.familyName}$`), 30);
        t.ok(box.focusVisible, `${pupil.givenName}'s box shows it has the focus`);
        await page.keyboard.press('Space');
      }
      await tabTo(page, /^Print emoji cards$/, 30);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/confirm\?/);
      t.match(await page.locator('h1').textContent(), /sets new emoji passwords/);
      t.match(await page.locator('.school-whom').textContent(), /Class 3B: 2 pupils/, 'the two ticked');
      await screenshotAndCheck(t, page, `school-console/confirm-emoji-cards-${size}`, `the confirmation (${size})`);

      await page.goto(c.at(`/people/${chloe!.id}`));
      t.match(await page.locator('main dl').textContent() ?? '', /Locked \(emoji\)/);
      await screenshotAndCheck(t, page, `school-console/pupil-${size}`, `a pupil's page (${size})`);

      await page.getByRole('button', { name: 'Make a new emoji password' }).click();
      await page.waitForURL(new RegExp(`/people/${chloe!.id}$`));
      t.equal(await page.locator('.emoji-reveal li').count(), 6, 'six pictures shown');
      await screenshotAndCheck(t, page, `school-console/new-emoji-${size}`, `the new emoji password (${size})`);
      await page.reload();
      t.equal(await page.locator('.emoji-reveal').count(), 0, 'shown once');
      t.same(problems, [], 'nothing went wrong in the browser');
    });
  }
});
