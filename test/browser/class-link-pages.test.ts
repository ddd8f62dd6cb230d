import type { BrowserContextOptions } from 'playwright-core';
import t from 'tap';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { classConsole } from '../helpers/class-console.js';
import { screenshotAndCheck } from '../helpers/page-check.js';

/**
 * Class links' pages in Chromium (docs/school-console.md → Class links, docs/childrens-sign-in.md → Class links)
 * at a phone's and a Chromebook's size: the class page's panel, the card shown once (its print is the card
 * alone), the pupils' "Type the class code" in English and Arabic (right to left), and the page of a code that
 * opens nothing; each screenshotted (test-artifacts/screenshots/class-links/), axe-clean and never wider than
 * the screen. A code typed there goes on to the school's sign-in screens.
 */

const SIZES: readonly [string, BrowserContextOptions][] = [
  ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['chromebook', { viewport: { width: 1366, height: 768 } }],
];

t.test('class links: the console panel, the card, the entry and its refusal, at two sizes', async (t) => {
  const c = await classConsole(t);
  const browser = await launchBrowser(t);
  const classUrl = c.at(`/classes/${c.taught.class.id}`);
  const { hostname } = new URL(c.lanyard.url);

  for (const [size, options] of SIZES) {
    await t.test(size, async (t) => {
      const staff = await openPage(t, browser, options);
      await staff.page.context().addCookies([...c.browser.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: '/' })));
      await staff.page.goto(`${classUrl}#class-link`);
      await screenshotAndCheck(t, staff.page, `class-links/console-panel-${size}`, `the class-link panel (${size})`);
      await staff.page.getByLabel('2 hours').check();
      await staff.page.getByRole('button', { name: 'Make a class link' }).click();
      await staff.page.waitForURL(/\/class-link$/);
      const code = (await staff.page.locator('.class-link-code [aria-hidden="true"]').textContent())!;
      t.match(code, /^[0-9A-Z]{5}-[0-9A-Z]{5}$/, 'the code, shown large');
      t.ok(await staff.page.locator('.class-link-qr svg').isVisible(), 'the QR code');
      await screenshotAndCheck(t, staff.page, `class-links/card-${size}`, `the class-link card (${size})`);
      await staff.page.emulateMedia({ media: 'print' });
      t.notOk(await staff.page.locator('.dev-header').isVisible(), 'printed: no menu');
      t.ok(await staff.page.locator('.class-link-card').isVisible(), 'printed: the card');
      await staff.page.emulateMedia({ media: 'screen' });
      t.same(staff.problems, [], 'nothing went wrong in the console');

      for (const lang of ['en', 'ar'] as const) {
        const pupil = await openPage(t, browser, { ...options, locale: lang });
        await pupil.page.goto(`${c.lanyard.url}/class`);
        t.equal(await pupil.page.locator('html').getAttribute('dir'), lang === 'ar' ? 'rtl' : 'ltr', `${lang}: the page's direction`);
        await screenshotAndCheck(t, pupil.page, `class-links/type-code-${lang}-${size}`, `type the class code, ${lang} (${size})`);
        await pupil.page.goto(`${c.lanyard.url}/class/ABCDE-FGHJK`);
        await screenshotAndCheck(t, pupil.page, `class-links/ended-${lang}-${size}`, `a code that opens nothing, ${lang} (${size})`);
        await pupil.page.locator('a[href="/class"]').click();
        await pupil.page.locator('#class-code').fill(code.toLowerCase().replace('-', ' '));
        await pupil.page.locator('form.class-code-form button[type="submit"]').click();
        await pupil.page.waitForURL(/\/interaction\//);
        t.pass(`${lang}: the typed code goes on to the school's sign-in screens`);
        t.same(pupil.problems, [], `${lang}: nothing went wrong in the browser`);
      }
    });
  }
});
