import t from 'tap';
import { systemClock } from '../../src/clock.js';
import { actorOf } from '../../src/developer/actor.js';
import { LOCALES } from '../../src/formats/locales.js';
import { CATALOGUE, type MessageKey } from '../../src/web/messages/catalogue.js';
import { browserSetUp } from '../helpers/browser-flow.js';
import { openPage } from '../helpers/browser.js';
import { EMOJI_KID } from '../helpers/children.js';
import { classroomDevice, tileClass } from '../helpers/class-sign-in.js';
import { writeConfig } from '../helpers/config-file.js';
import { developmentApp } from '../helpers/development-app.js';
import { tapPicture } from '../helpers/emoji-keyboard.js';
import { checkInLanguage, LANGUAGE_SIZES } from '../helpers/page-language.js';
import { authorizationRequest } from '../helpers/relying-party.js';

/**
 * The children's screens sign-in-languages.test.ts leaves out, in every language (docs/languages.md), at a
 * phone, a tablet and a Chromebook size: the emoji keyboard (empty, three pictures chosen, wrong pictures with
 * the slots shaking and a face, a wait with its countdown ring), the class's name tiles on a classroom device,
 * the tapped pupil's keyboard, help code and badge, the pictures after a badge (a school with badge + emoji),
 * the class code page and a class link that opens nothing, and the signed-out page. Each is photographed and
 * checked as test/helpers/page-language.ts says (test-artifacts/screenshots/class-sign-in-languages/): axe,
 * no sideways scrolling, no English left (names are data), and in Arabic right to left. The keyboard's four
 * states are photographed and axe-checked here only: emoji-keyboard-fit.test.ts measures their fit and leaves
 * these to this test. Each language at each size has a browser context of its own (its own device: its wrong
 * tries are its own); two run at once, as most of a screen's time is waiting on the browser or the server (48 s
 * one at a time, 33 s two at once).
 */

const BADGE = 'EEEE-EEEE-EEEE-EEEE-EEEE-EEEE-EE';
const WRONG = ['cat', 'cat', 'cat'];

/** The tabs' words that do not fit their tab, or would lose what rises above the line (the accent of « À manger »). */
const TABS_CUT = `[...document.querySelectorAll('.emoji-tab-label')]
  .filter((e) => e.scrollWidth > e.clientWidth || getComputedStyle(e).overflowY !== 'visible').map((e) => e.textContent)`;

t.test('class sign-in, the emoji keyboard and the signed-out page in four languages, at three sizes', { jobs: 2 }, async (t) => {
  const config = writeConfig((c) => {
    // Two wrong tries from a new device, and the second waits: the wrong screen, then the countdown.
    c.login_throttling = { new_device_free_attempts: 2, new_device_base_wait_seconds: 30 };
    const org = c.organisations![0]!;
    org.badge_requires_emoji = true;
    org.users!.find((u) => u.username === EMOJI_KID.username)!.badge_code = BADGE;
  });
  const { lanyard, rp, browser } = await browserSetUp(t, { config });
  const { organisation, class: klass } = await tileClass(lanyard);
  const device = await classroomDevice(lanyard, systemClock, organisation.id, klass.id);
  const dev = await developmentApp(lanyard);
  await dev.service.setLogoutUrl(actorOf(dev.owner), dev.clientId, 'https://tables-trainer.example/signed-out');

  for (const [size, options] of LANGUAGE_SIZES) {
    for (const locale of LOCALES) {
      void t.test(`${locale} ${size}`, { buffered: true }, async (t) => {
        const { page, problems } = await openPage(t, browser, { ...options, locale });
        const touch = options.hasTouch === true;
        const say = (key: MessageKey) => CATALOGUE[locale][key];
        const look = (n: string, label: string, moving = false) => checkInLanguage(t, page, locale,
          { folder: 'class-sign-in-languages', name: `${locale}-${size}-${n}`, moving }, `${label} (${locale}, ${size})`);
        const tap = (selector: string) => (touch ? page.locator(selector).tap() : page.locator(selector).click());
        const signInTap = async () => {
          const [res] = await Promise.all([
            page.waitForResponse((r) => r.url().includes('/emoji') && r.request().method() === 'POST'),
            tap('button.go'),
          ]);
          await page.waitForLoadState();
          return res.status();
        };

        // The emoji keyboard, for a username nobody has: its wrong tries are a new device's, not a pupil's.
        await page.goto((await authorizationRequest(rp)).url.href);
        const interaction = new URL(page.url());
        const step = (path: string) => `${interaction.origin}${interaction.pathname}/${path}?org=demo-school`;
        await page.goto(step('emoji'));
        await page.locator('[data-emoji-keyboard]').waitFor();
        await look('01-keyboard', 'the emoji keyboard');
        const cut = await page.evaluate(TABS_CUT) as string[];
        t.same(cut, [], `every tab's word whole, an accent above a capital too (${locale}, ${size})`);
        await page.locator('#username').fill(`ghost-${locale}-${size}`);
        for (const n of ['dog', 'apple', 'rocket']) await tapPicture(page, n, touch);
        await look('02-three-chosen', 'three pictures chosen');
        for (const n of WRONG) await tapPicture(page, n, touch);
        t.equal(await signInTap(), 401, `wrong pictures: 401 (${locale}, ${size})`);
        await page.locator('.emoji-slots.shake').waitFor();
        t.ok(await page.locator('.emoji-oops .emoji-face').isVisible(), `wrong pictures: a face (${locale}, ${size})`);
        await look('03-wrong', 'wrong pictures', true);
        while ((await page.locator('.emoji-slot.filled').count()) > 0) await tap('.emoji-undo');
        for (const n of [...WRONG, ...WRONG]) await tapPicture(page, n, touch);
        t.equal(await signInTap(), 429, `the second wrong try waits (${locale}, ${size})`);
        await page.locator('[data-countdown-ring]').waitFor();
        await look('04-wait', 'a wait, counted down on a ring', true);

        // A badge at a school with badge + emoji: the pictures come second (typed here: this browser has no camera).
        await page.goto(step('badge'));
        await page.locator('#code').fill(BADGE);
        await page.locator('form[data-badge-form] button[type=submit]').click();
        await page.waitForURL(/\/badge\/emoji\?/);
        await page.locator('[data-emoji-keyboard]').waitFor();
        await look('05-badge-then-pictures', 'the pictures after a badge');

        // The classroom device set to the class: its name tiles, and a tapped pupil's screens.
        await page.context().addCookies([{ name: device.name, value: device.value, url: lanyard.url }]);
        await page.goto(`${interaction.origin}${interaction.pathname}?org=demo-school`);
        await page.locator('.name-tile').first().waitFor();
        t.equal(await page.locator('.name-tile').count(), 3, `three tiles (${locale}, ${size})`);
        await look('06-tiles', 'the class’s name tiles');
        await tap('.name-tile:has-text("Peregrine")');
        await page.locator('[data-emoji-keyboard]').waitFor();
        t.equal(await page.locator('#username').count(), 0, `no username to type (${locale}, ${size})`);
        await look('07-pupil-keyboard', 'a tapped pupil’s keyboard');
        await page.getByRole('link', { name: say('signIn.haveHelpCode') }).click();
        await page.locator('input[name=code]').waitFor();
        await look('08-pupil-help-code', 'a tapped pupil’s help code');
        await page.getByRole('link', { name: say('classSignIn.badge') }).click();
        await page.locator('[data-scanner-status]').filter({ hasText: new RegExp(`^(${say('signIn.badge.noCamera')}|${say('signIn.badge.blocked')})$`
          .replace(/[.?]/g, '\\$&')) }).waitFor();
        t.match(await page.locator('.prompt').innerText(), /Peregrine/, `without a camera the pupil is still greeted by name (${locale}, ${size})`);
        await look('09-pupil-badge', 'a tapped pupil’s badge');

        // The class link's pages, and the page an app in development's sign-out ends on.
        await page.goto(`${lanyard.url}/class`);
        await look('10-class-code', 'the class code page');
        await page.goto(`${lanyard.url}/class/ABCDE-FGHJK`);
        await page.getByRole('heading', { name: say('classLink.ended.heading') }).waitFor();
        await look('11-class-link-ended', 'a class link that opens nothing');
        await page.goto(`${lanyard.url}/oauth/logout?client_id=${encodeURIComponent(dev.clientId)}`);
        await page.getByRole('heading', { name: say('errors.signedOut.title') }).waitFor();
        await look('12-signed-out', 'the signed-out page');
        t.same(problems, [], 'no script errors, blocked styles or failed loads');
      });
    }
  }
});
