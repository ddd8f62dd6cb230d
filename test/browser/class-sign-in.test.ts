import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { emojiKey, emojiTab } from '../helpers/emoji-keyboard.js';
import { ManualClock } from '../../src/clock.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { classroomDevice, tileClass } from '../helpers/class-sign-in.js';
import { startLanyard } from '../helpers/lanyard.js';
import { screenshotAndCheck } from '../helpers/page-check.js';

/**
 * Class sign-in in Chromium (docs/childrens-sign-in.md → Class sign-in): a six-year-old on the class's tablet
 * goes from the sign-in screen to their dashboard with one tap on their name, six on their pictures and the Sign
 * in tap, typing nothing (a class link, from the console to the dashboard, revoked and expired: class-link-journey.test.ts). The tiles and the tapped pupil's keyboard are screenshotted at a phone, a tablet and a Chromebook size,
 * in English and in Arabic (right to left), and checked with axe (test-artifacts/screenshots/class-sign-in/).
 */

const SIZES = [
  ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['tablet', { viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['chromebook', { viewport: { width: 1366, height: 768 } }],
] as const;

/** Counts the taps, and any typing (there must be none): a pupil who cannot spell their username signs in. */
function watchHands(page: Page) {
  const hands = { taps: 0, typed: 0 };
  const typing = () => { hands.typed += 1; return Promise.resolve(); };
  page.keyboard.type = typing;
  page.keyboard.insertText = typing;
  page.fill = typing;
  page.type = typing;
  const tap = async (locator: ReturnType<Page['locator']>) => { hands.taps += 1; await locator.click(); };
  return { hands, tap };
}

t.test('class sign-in in Chromium: tiles, pictures, the dashboard; no typing', async (t) => {
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock });
  const { organisation, class: klass, emoji } = await tileClass(lanyard);
  const browser = await launchBrowser(t);
  const device = await classroomDevice(lanyard, clock, organisation.id, klass.id);

  const signInFromTiles = async (t: Test, page: Page, label: string) => {
    const { hands, tap } = watchHands(page);
    await page.goto(`${lanyard.url}/sign-in?org=demo-school`);
    await page.getByRole('heading', { name: 'Demo School' }).waitFor();
    t.equal(await page.locator('.prompt').innerText(), 'Who are you?', `${label}: the sign-in screen asks who you are`);
    await tap(page.getByRole('link', { name: 'Peregrine', exact: true }));
    await page.getByText(/^Hi \u2068Peregrine\u2069! Tap your pictures$/).waitFor();
    let pages = 0; // a picture on a page not shown is its tab's tap away
    for (const name of emoji) {
      if (!(await emojiKey(page, name).isVisible())) {
        await tap(emojiTab(page, name));
        pages += 1;
      }
      await tap(page.getByRole('button', { name, exact: true }));
    }
    await tap(page.getByRole('button', { name: 'Sign in', exact: true }));
    await page.waitForURL(`${lanyard.url}/`);
    t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Hello, Peregrine', `${label}: Peregrine’s dashboard`);
    t.equal(hands.taps, 1 + emoji.length + pages + 1, `${label}: 1 tap on the name, ${emoji.length} on pictures, ${pages} on their pages' tabs, 1 on Sign in`);
    t.ok(pages <= emoji.length, `${label}: at most one tab a picture`);
    t.equal(hands.typed, 0, `${label}: nothing typed`);
  };

  await t.test('a classroom device set to the class', async (t) => {
    const { page } = await openPage(t, browser, SIZES[1][1]);
    await page.context().addCookies([{ name: device.name, value: device.value, url: lanyard.url }]);
    await signInFromTiles(t, page, 'the class tablet');
  });

  await t.test('screenshots: the tiles and the keyboard, three sizes, English and Arabic', async (t) => {
    for (const [size, options] of SIZES) {
      const { page } = await openPage(t, browser, options);
      await page.context().addCookies([{ name: device.name, value: device.value, url: lanyard.url }]);
      for (const lang of ['en', 'ar'] as const) {
        await page.goto(`${lanyard.url}/sign-in?org=demo-school`);
        await page.locator('.name-tile').first().waitFor();
        const withLang = new URL(page.url());
        withLang.searchParams.set('lang', lang);
        await page.goto(withLang.href);
        t.equal(await page.getAttribute('html', 'dir'), lang === 'ar' ? 'rtl' : 'ltr', `${size} ${lang}: the page's direction`);
        const box = (await page.locator('.name-tile').first().boundingBox())!;
        t.ok(box.width >= 48 && box.height >= 48, `${size} ${lang}: tiles big enough to tap (${Math.round(box.width)}×${Math.round(box.height)})`);
        if (size === 'phone') {
          const tops = await page.locator('.name-tile').evaluateAll((tiles) => tiles.map((e) => Math.round(e.getBoundingClientRect().top)));
          t.equal(new Set(tops).size, 1, 'phone: the three tiles on one row');
        }
        await screenshotAndCheck(t, page, `class-sign-in/${size}-${lang}-01-tiles`, `the tiles (${size}, ${lang})`);
        await page.locator('.name-tile', { hasText: 'Peregrine' }).click();
        await page.locator('.emoji-form').waitFor();
        await screenshotAndCheck(t, page, `class-sign-in/${size}-${lang}-02-keyboard`, `Peregrine’s keyboard (${size}, ${lang})`);
      }
      await page.goto(`${lanyard.url}/sign-in?org=demo-school&lang=en`);
    }
  });
});
