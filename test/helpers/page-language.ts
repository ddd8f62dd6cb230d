import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import type { Test } from 'tap';
import type { Locale } from '../../src/formats/locales.js';
import { CATALOGUE, type MessageKey } from '../../src/web/messages/catalogue.js';
import { checkAccessibility } from './axe.js';
import { pageWidths, SCREENSHOT_DIR } from './browser.js';

/**
 * A pupil's screen in its language (docs/languages.md), as the languages tours look at it
 * (test/browser/sign-in-languages.test.ts, class-sign-in-languages.test.ts): photographed as the screen shows it,
 * checked by axe-core, no wider than the screen, in its language with no English left in it, and in Arabic
 * mirrored: right to left, the card's text starting at its right edge.
 */

/** A phone, a tablet and a Chromebook, touched where a finger is what there is. */
export const LANGUAGE_SIZES: readonly [string, BrowserContextOptions][] = [
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['tablet', { viewport: { width: 820, height: 1180 }, isMobile: true, hasTouch: true }],
  ['chromebook', { viewport: { width: 1366, height: 768 } }],
];

/**
 * English sentences with no argument that a translated page must not show (the brand's name is the same in every
 * language). Names, schools' and apps' names are data, and come into sentences only as arguments: never looked for.
 */
export const englishLeft = (locale: Locale): string[] => (locale === 'en' ? [] : (Object.keys(CATALOGUE.en) as MessageKey[])
  .filter((k) => !CATALOGUE.en[k].includes('{') && CATALOGUE.en[k] !== CATALOGUE[locale][k] && CATALOGUE.en[k].length >= 8)
  .map((k) => CATALOGUE.en[k]));

/** Where the h1's text starts and ends, against the card's content box. */
const HEADING_SIDES = `(() => {
  const h = document.querySelector('main h1');
  const card = document.querySelector('main.card');
  const range = document.createRange();
  range.selectNodeContents(h);
  const text = range.getBoundingClientRect();
  const box = card.getBoundingClientRect();
  const style = getComputedStyle(card);
  return { direction: getComputedStyle(h).direction, textLeft: text.left, textRight: text.right,
    contentLeft: box.left + parseFloat(style.paddingLeft), contentRight: box.right - parseFloat(style.paddingRight) };
})()`;

/**
 * The viewport's screenshot as test-artifacts/screenshots/<folder>/<name>.png. Animations are stopped at their
 * end unless `moving` (a shake or a countdown ring is photographed as it runs: stopped, the ring would be empty).
 */
export async function shootScreen(page: Page, folder: string, name: string, moving = false): Promise<void> {
  const path = join(SCREENSHOT_DIR, folder, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, animations: moving ? 'allow' : 'disabled' });
}

/** The screenshot (shootScreen), then the checks: lang and dir, axe, no sideways scrolling, no English left, Arabic mirrored. */
export async function checkInLanguage(
  t: Test, page: Page, locale: Locale, shot: { folder: string; name: string; moving?: boolean }, label: string,
): Promise<void> {
  await shootScreen(page, shot.folder, shot.name, shot.moving);
  const html = page.locator('html');
  t.equal(await html.getAttribute('lang'), locale, `${label}: lang="${locale}"`);
  t.equal(await html.getAttribute('dir'), locale === 'ar' ? 'rtl' : 'ltr', `${label}: its direction`);
  await checkAccessibility(t, page, label);
  const widths = await pageWidths(page);
  t.ok(widths.page <= widths.device, `${label}: no sideways scrolling (${widths.page} ≤ ${widths.device}px)`);
  const text = await page.locator('body').innerText();
  t.same(englishLeft(locale).filter((s) => text.includes(s)), [], `${label}: no English left`);
  if (locale === 'ar') {
    const sides = await page.evaluate(HEADING_SIDES) as { direction: string; textLeft: number; textRight: number; contentLeft: number; contentRight: number };
    t.equal(sides.direction, 'rtl', `${label}: the heading reads right to left`);
    t.ok(Math.abs(sides.textRight - sides.contentRight) < 3, `${label}: the card's text starts at its right edge (${Math.round(sides.textRight)} ≈ ${Math.round(sides.contentRight)})`);
  }
}
