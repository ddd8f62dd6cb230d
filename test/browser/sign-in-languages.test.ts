import type { Cookie } from 'playwright-core';
import t from 'tap';
import { type Locale, LOCALES } from '../../src/formats/locales.js';
import { translator } from '../../src/web/i18n/translator.js';
import { CATALOGUE, type MessageKey } from '../../src/web/messages/catalogue.js';
import { browserSetUp } from '../helpers/browser-flow.js';
import { openPage } from '../helpers/browser.js';
import { checkInLanguage, LANGUAGE_SIZES } from '../helpers/page-language.js';
import { authorizationRequest } from '../helpers/relying-party.js';
import { TEACHER } from '../helpers/sign-in.js';

/**
 * Every pupil's screen in every language (docs/languages.md), at a phone, a tablet and a Chromebook size: the
 * school picker, the ways to sign in, password, help code, badge (with no camera), a refusal, the expired
 * page, the front door and the dashboard after a password sign-in (class sign-in's screens, the emoji keyboard's
 * and the signed-out page: class-sign-in-languages.test.ts). The browser asks for the language
 * (Accept-Language); each screen is photographed and checked as test/helpers/page-language.ts says
 * (test-artifacts/screenshots/sign-in-languages/). The teacher signs in with a password once per language (at the
 * first size); the other sizes open the dashboard with that sign-in's cookies rather than signing in again.
 */

/** Where the first school's name sits in its link: at the start of the line, whichever side that is. */
const CHOICE_SIDES = `(() => {
  const a = document.querySelector('a.choice');
  const name = document.createRange();
  name.selectNodeContents(a);
  const box = a.getBoundingClientRect();
  const text = name.getClientRects()[0];
  return { nameAtRight: box.right - text.right < box.width / 4, nameAtLeft: text.left - box.left < box.width / 4 };
})()`;

t.test('every pupil’s screen in English, Spanish, French and Arabic, at three sizes', async (t) => {
  const { lanyard, rp, browser } = await browserSetUp(t);
  const signedIn = new Map<Locale, { cookies: Cookie[]; dashboard: string }>();
  for (const [size, options] of LANGUAGE_SIZES) {
    for (const locale of LOCALES) {
      await t.test(`${locale} ${size}`, async (t) => {
        const { page, problems } = await openPage(t, browser, { ...options, locale });
        const say = (key: MessageKey) => CATALOGUE[locale][key];
        const look = (n: string, label: string) => checkInLanguage(t, page, locale, { folder: 'sign-in-languages', name: `${locale}-${size}-${n}` }, `${label} (${locale}, ${size})`);

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
        const session = signedIn.get(locale);
        if (session) {
          await page.context().addCookies(session.cookies);
          await page.goto(session.dashboard);
        } else {
          await page.goto(`${lanyard.url}/sign-in?org=demo-school`);
          await page.getByText(say('signIn.chooser.prompt')).waitFor();
          await page.getByRole('link', { name: new RegExp(say('signIn.method.password')) }).click();
          await page.locator('#username').fill(TEACHER.username);
          await page.locator('#password').fill(TEACHER.password);
          await page.locator('form[action$="/password"] button[type=submit]').click();
        }
        // As the page writes it: a right-to-left page isolates the name (src/web/i18n/translator.ts).
        await page.getByRole('heading', { name: translator(locale).t('dashboard.hello', { name: 'Tess' }) }).waitFor();
        if (!session) signedIn.set(locale, { cookies: await page.context().cookies(), dashboard: page.url() });
        await look('09-dashboard', 'the dashboard');
        t.same(problems, [], 'no script errors, blocked styles or failed loads');
      });
    }
  }
});
