import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { LOCALES, type Locale } from '../../src/formats/locales.js';
import { translator } from '../../src/web/i18n/translator.js';
import { CATALOGUE, type MessageKey } from '../../src/web/messages/catalogue.js';
import { checkAccessibility } from '../helpers/axe.js';
import { browserSetUp } from '../helpers/browser-flow.js';
import { openPage, pageWidths, SCREENSHOT_DIR } from '../helpers/browser.js';
import { authorizationRequest } from '../helpers/relying-party.js';
import { TEACHER } from '../helpers/sign-in.js';

/**
 * Every pupil's screen in every language (docs/languages.md), at a phone, a tablet and a Chromebook size: the
 * school picker, the ways to sign in, password, help code, badge (with no camera), a refusal, the expired
 * page, the front door and the dashboard after a password sign-in. The browser asks for the language
 * (Accept-Language); each screen is photographed as the screen shows it (test-artifacts/screenshots/
 * sign-in-languages/), checked by axe-core, no wider than the screen, in its language with no English left
 * in it, and in Arabic mirrored: right to left, the card's text starting at its right edge.
 */

const SIZES: readonly [string, BrowserContextOptions][] = [
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['tablet', { viewport: { width: 820, height: 1180 }, isMobile: true, hasTouch: true }],
  ['chromebook', { viewport: { width: 1366, height: 768 } }],
];

/** English sentences with no argument that a translated page must not show (the brand's name is the same in every language). */
const englishLeft = (locale: Locale): string[] => (locale === 'en' ? [] : (Object.keys(CATALOGUE.en) as MessageKey[])
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

/** Where the first school's name sits in its link: at the start of the line, whichever side that is. */
const CHOICE_SIDES = `(() => {
  const a = document.querySelector('a.choice');
  const name = document.createRange();
  name.selectNodeContents(a);
  const box = a.getBoundingClientRect();
  const text = name.getClientRects()[0];
  return { nameAtRight: box.right - text.right < box.width / 4, nameAtLeft: text.left - box.left < box.width / 4 };
})()`;

async function shoot(page: Page, name: string): Promise<void> {
  const path = join(SCREENSHOT_DIR, 'sign-in-languages', `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, animations: 'disabled' });
}

async function check(t: Test, page: Page, locale: Locale, name: string, label: string): Promise<void> {
  await shoot(page, name);
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

t.test('every pupil’s screen in English, Spanish, French and Arabic, at three sizes', async (t) => {
  const { lanyard, rp, browser } = await browserSetUp(t);
  for (const [size, options] of SIZES) {
    for (const locale of LOCALES) {
      await t.test(`${locale} ${size}`, async (t) => {
        const { page, problems } = await openPage(t, browser, { ...options, locale });
        const say = (key: MessageKey) => CATALOGUE[locale][key];
        const look = (n: string, label: string) => check(t, page, locale, `${locale}-${size}-${n}`, `${label} (${locale}, ${size})`);

        await page.goto((await authorizationRequest(rp)).url.href);
        const interaction = new URL(page.url());
        await page.locator('#q').fill('demo');
        await page.locator('form[role=search] button').click();
        await page.waitForURL(/[?&]q=demo/);
        await look('01-find-your-school', 'the school picker');
        // The school's name starts where the page reads from; its "onwards" arrow (›, drawn ‹ right to left) at the other end.
        const choice = await page.evaluate(CHOICE_SIDES) as { nameAtRight: boolean; nameAtLeft: boolean };
        t.ok(locale === 'ar' ? choice.nameAtRight && !choice.nameAtLeft : choice.nameAtLeft, `the school's name starts the way the page reads (${locale}, ${size})`);

        await page.getByRole('link', { name: 'Demo School' }).click();
        await page.getByText(say('signIn.chooser.prompt')).waitFor();
        await look('02-method-chooser', 'the method chooser');

        const step = (path: string) => `${interaction.origin}${interaction.pathname}/${path}?org=demo-school`;
        await page.goto(step('password'));
        await look('03-password', 'the password form');
        await page.goto(step('help-code'));
        await look('04-help-code', 'the help-code form');
        await page.goto(step('badge'));
        // No camera in this browser: the page says so, in its language, and still offers the code and a photo.
        await page.locator('[data-scanner-status]').filter({ hasText: new RegExp(`^(${say('signIn.badge.noCamera')}|${say('signIn.badge.blocked')})$`
          .replace(/[.?]/g, '\\$&')) }).waitFor();
        await look('05-badge', 'the badge screen without a camera');

        await page.goto((await authorizationRequest(rp, { organisation: 'sandbox' })).url.href);
        await page.getByRole('heading', { name: say('refusal.sandbox.title') }).waitFor();
        await look('06-refused', 'a refused sign-in');

        await page.goto(`${lanyard.url}/interaction/no-such-sign-in`);
        await page.getByRole('heading', { name: say('errors.expired.title') }).waitFor();
        await look('07-expired', 'the expired page');

        await page.goto(`${lanyard.url}/`);
        await page.getByRole('heading', { name: say('dashboard.home.heading') }).waitFor();
        await look('08-front-door', 'the front door');
        await page.goto(`${lanyard.url}/sign-in?org=demo-school`);
        await page.getByText(say('signIn.chooser.prompt')).waitFor();
        await page.getByRole('link', { name: new RegExp(say('signIn.method.password')) }).click();
        await page.locator('#username').fill(TEACHER.username);
        await page.locator('#password').fill(TEACHER.password);
        await page.locator('form[action$="/password"] button[type=submit]').click();
        // As the page writes it: a right-to-left page isolates the name (src/web/i18n/translator.ts).
        await page.getByRole('heading', { name: translator(locale).t('dashboard.hello', { name: 'Tess' }) }).waitFor();
        await look('09-dashboard', 'the dashboard');
        t.same(problems, [], 'no script errors, blocked styles or failed loads');
      });
    }
  }
});
