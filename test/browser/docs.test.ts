import t from 'tap';
import { checkAccessibility } from '../helpers/axe.js';
import { focused, launchBrowser, openPage, pageWidths, screenshot, screenshotSections, wordsBroken } from '../helpers/browser.js';
import { startLanyard } from '../helpers/lanyard.js';

/** /docs in Chromium: readable on a phone and a desktop, keyboard-operable, no serious axe violations. */

t.test('the developer guide at phone and desktop widths', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = await launchBrowser(t);
  for (const [name, viewport] of [['phone', { width: 375, height: 812 }], ['desktop', { width: 1366, height: 900 }]] as const) {
    await t.test(name, async (t) => {
      const { page, problems } = await openPage(t, browser, { viewport });
      await page.goto(`${lanyard.url}/docs`);
      t.equal(await page.title(), 'Developer guide · Lanyard');
      t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Sign in with Lanyard: the developer guide');
      const widths = await pageWidths(page);
      t.ok(widths.page <= widths.device, `nothing wider than the screen (${widths.page} ≤ ${widths.device}px): code blocks scroll by themselves`);
      // An identifier in a table (a parameter, a claim, an error code, a header) reads whole: no line break inside
      // it, not even after a hyphen (Retry-After); a path or URL breaks only after a slash (<wbr> separates its parts).
      const broken = await wordsBroken(page, '.docs-page table code', { afterHyphen: false });
      t.same(broken, [], 'no identifier in a table broken across lines, paths only after a slash');
      const inText = await wordsBroken(page, '.docs-page :is(p, li, dd, h2, h3) code', { afterHyphen: true });
      t.same(inText, [], 'nor in the running text');
      await screenshot(page, `docs/guide-${name}-${viewport.width}`);
      const sections = await screenshotSections(page, `docs/guide-${name}-${viewport.width}`);
      t.ok(sections.length >= 10, `a screen of each of the guide's ${sections.length} sections saved`);
      await checkAccessibility(t, page, `developer guide, ${name}`);
      t.same(problems, [], 'no console errors or failed resources');
    });
  }

  await t.test('keyboard: the skip link, then the contents lead to a section', async (t) => {
    const { page } = await openPage(t, browser, { viewport: { width: 1366, height: 900 } });
    await page.goto(`${lanyard.url}/docs`);
    await page.keyboard.press('Tab');
    t.match(await focused(page), { tag: 'a', name: 'Skip to content' }, 'the first Tab reaches the skip link');
    await page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'Going live' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#going-live$/);
    t.ok(await page.getByRole('heading', { name: 'Going live', level: 2 }).isVisible(), 'the section is shown');
  });
});
