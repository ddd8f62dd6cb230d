import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { assertSignedIn, browserSetUp } from '../helpers/browser-flow.js';
import { answerCallback, openPage, SCREENSHOT_DIR } from '../helpers/browser.js';
import { EMOJI_KID } from '../helpers/children.js';
import { emojiKey as keyOf, emojiTab as tabOf, keyboardPost, slotGlyphs, tapPicture } from '../helpers/emoji-keyboard.js';
import { writeConfig } from '../helpers/config-file.js';
import { type AuthorizationRequest, authorizationRequest, DEMO_CLIENT } from '../helpers/relying-party.js';
import { EMOJI_BANK } from '../../src/formats/emoji-bank.js';
import { EMOJI_PAGES } from '../../interactions/emoji-pages.js';
import { translator } from '../../src/web/i18n/translator.js';

/**
 * The emoji keyboard fits the screen (docs/childrens-sign-in.md → Emoji passwords): at a phone, a tablet and a
 * Chromebook size, in English and in Arabic (right to left), nothing scrolls, every picture is a big enough
 * target on its page, each of the 84 is two taps away at most (its tab, then it), the slots show the pictures,
 * Delete takes the last back, wrong pictures shake with a face, a wait counts down on a ring; a pupil signs in
 * by taps alone, with JavaScript and without. The keyboard's states (empty, three chosen, wrong, a wait) are
 * photographed and axe-checked in all four languages at these three sizes by class-sign-in-languages.test.ts, so
 * here only what that test does not show is photographed (a tab's page, six chosen, no JavaScript):
 * test-artifacts/screenshots/emoji-keyboard-fit/. One Lanyard and one browser for the whole file.
 */

const SIZES: [string, BrowserContextOptions][] = [
  ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['tablet', { viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['chromebook', { viewport: { width: 1366, height: 768 } }],
];
const LANGUAGES = ['en', 'ar'] as const;
const EMMY = { givenName: 'Emmy', type: 'student' };
const WRONG = ['cat', 'cat', 'cat', 'cat', 'cat', 'cat'];

async function shot(page: Page, name: string) {
  const path = join(SCREENSHOT_DIR, 'emoji-keyboard-fit', `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path });
}

async function openKeyboard(page: Page, req: AuthorizationRequest, lang: string) {
  await page.goto(req.url.href);
  const interaction = new URL(page.url());
  await page.goto(`${interaction.origin}${interaction.pathname}/emoji?org=demo-school&lang=${lang}`);
  await page.locator('[data-emoji-keyboard]').waitFor();
}

/** Whether anything scrolls: the document's height and width against the viewport's. */
const scrolls = (page: Page) => page.evaluate(`({
  down: document.scrollingElement.scrollHeight - innerHeight,
  across: document.scrollingElement.scrollWidth - innerWidth,
})`) as Promise<{ down: number; across: number }>;

async function signInTap(page: Page, touch: boolean) {
  const go = page.locator('button.go');
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/emoji') && r.request().method() === 'POST'),
    touch ? go.tap() : go.click(),
  ]);
  await page.waitForLoadState();
  return res;
}

/** What must be on the screen, unscrolled: the slots, Delete, the keyboard and Sign in. */
async function keyboardOnScreen(t: Test, page: Page, options: BrowserContextOptions, when: string) {
  for (const [what, selector] of [['the keyboard', '[data-emoji-keyboard]'], ['the slots', '[data-emoji-slots]'], ['Sign in', 'button.go'], ['Delete', '.emoji-undo']]) {
    const box = (await page.locator(selector!).boundingBox())!;
    t.ok(box.y >= 0 && box.y + box.height <= options.viewport!.height, `${when}: ${what} is on the screen`);
  }
}

/** With a mistake shown (its face, its words, on a phone in the prompt's place) nothing scrolls either. */
async function fitsWithMistake(t: Test, page: Page, options: BrowserContextOptions) {
  t.same(await scrolls(page), { down: 0, across: 0 }, 'with the mistake shown, nothing scrolls');
  await keyboardOnScreen(t, page, options, 'with the mistake shown');
}

/** The countdown's number, in Western or Arabic-Indic digits. */
const digits = (shown: string) => Number(shown.replace(/[٠-٩]/g, (d: string) => String('٠١٢٣٤٥٦٧٨٩'.indexOf(d))));

const glyph = (name: string) => EMOJI_BANK.find(([n]) => n === name)![1];

t.test('every picture is on exactly one page, and each page has at most 28', async (t) => {
  const names = EMOJI_PAGES.flatMap((p) => EMOJI_BANK.slice(p.from, p.to).map(([n]) => n));
  t.same(names, EMOJI_BANK.map(([n]) => n), 'the pages, in order, are the bank: 84 pictures, none twice');
  t.ok(EMOJI_PAGES.every((p) => p.to - p.from <= 28), 'four rows of seven at most');
});

t.test('the emoji keyboard on a phone, a tablet and a Chromebook', async (t) => {
  // Two wrong tries from a new device, and the second waits (30 s: long enough to see the ring count down).
  const config = writeConfig((c) => { c.login_throttling = { new_device_free_attempts: 2, new_device_base_wait_seconds: 30 }; });
  const { rp, browser } = await browserSetUp(t, { config });
  await t.test('fits, in English and Arabic', async (t) => {
    for (const [size, options] of SIZES) {
      for (const lang of LANGUAGES) {
        await t.test(`${size}, ${lang}`, async (t) => {
          const touch = options.hasTouch === true;
          const least = touch ? 48 : 44;
          const { page, problems } = await openPage(t, browser, options);
          const tt = translator(lang);
          const name = `${size}-${lang}`;
          await openKeyboard(page, await authorizationRequest(rp), lang);
          t.equal(await page.getAttribute('html', 'dir'), lang === 'ar' ? 'rtl' : 'ltr');
          t.same(await scrolls(page), { down: 0, across: 0 }, 'nothing scrolls, down or across');
          await keyboardOnScreen(t, page, options, 'on arrival');

          // Every page: its pictures big enough, and every picture two taps away at most.
          const seen: string[] = [];
          for (const p of EMOJI_PAGES) {
            await (touch ? page.locator(`button[name="page"][value="${p.id}"]`).tap() : page.locator(`button[name="page"][value="${p.id}"]`).click());
            const keys = await page.locator('.emoji-grid:not([hidden]) .emoji-key').evaluateAll((els) => els.map((e) => {
              const r = e.getBoundingClientRect();
              return { name: e.getAttribute('value')!, label: e.getAttribute('aria-label')!, w: r.width, h: r.height, x: r.x, right: r.right, bottom: r.bottom };
            }));
            t.same(keys.map((k) => k.name), EMOJI_BANK.slice(p.from, p.to).map(([n]) => n), `${p.id}: its pictures shown after one tap on its tab`);
            const small = keys.filter((k) => k.w < least || k.h < least || k.x < 0 || k.right > options.viewport!.width || k.bottom > options.viewport!.height);
            t.same(small, [], `${p.id}: every picture at least ${least}px square and on the screen`);
            t.equal(keys[0]!.label, tt.t(`emojiName.${keys[0]!.name}` as never), `${p.id}: named for screen readers in ${lang}`);
            seen.push(...keys.map((k) => k.name));
            t.same(await scrolls(page), { down: 0, across: 0 }, `${p.id}: nothing scrolls`);
          }
          t.equal(new Set(seen).size, 84, 'all 84 pictures reachable');
          if (size === 'phone') await shot(page, `${name}-02-things-page`);

          // The slots show the pictures as they are tapped; Delete takes the last back.
          const taps: number[] = [];
          for (const n of ['dog', 'apple', 'rocket']) taps.push(await tapPicture(page, n, touch));
          t.ok(taps.every((n) => n <= 2), `each picture in two taps at most (${taps.join(', ')})`);
          t.same((await slotGlyphs(page)).slice(0, 4), [glyph('dog'), glyph('apple'), glyph('rocket'), ''], 'the slots show the pictures tapped');
          t.equal(await page.locator('.emoji-slot.next').count(), 1, 'one slot is marked as the next');
          t.equal(await page.locator('[data-emoji-status]').innerText(), tt.t('emoji.chosen', { count: 3, total: 6 }), 'the count said for screen readers');
          await (touch ? page.locator('.emoji-undo').tap() : page.locator('.emoji-undo').click());
          t.same((await slotGlyphs(page)).slice(0, 3), [glyph('dog'), glyph('apple'), ''], 'Delete takes the last picture back');
          t.equal(await page.locator('[data-emoji-value]').inputValue(), 'dog,apple');

          // Wrong pictures (for someone unknown: the same answer): the slots shake, a face, the words.
          const ghost = `ghost-${name}`;
          const wrongOnce = async () => {
            await page.getByLabel(tt.t('emoji.username')).fill(ghost);
            while ((await page.locator('.emoji-slot.filled').count()) > 0) await page.locator('.emoji-undo').click();
            for (const n of WRONG) await tapPicture(page, n, touch);
            return signInTap(page, touch);
          };
          t.equal((await wrongOnce()).status(), 401, 'wrong pictures: 401');
          await page.locator('.emoji-slots.shake').waitFor();
          t.pass('the slots shake');
          t.equal(await page.evaluate('getComputedStyle(document.querySelector(".emoji-slots")).animationName'), 'emoji-shake', 'by a CSS animation');
          t.ok(await page.locator('.emoji-oops .emoji-face').isVisible(), 'a face beside the words');
          t.equal(await page.getByRole('alert').innerText(), tt.t('attempt.wrong.emoji'), 'and the words, as an alert');
          await fitsWithMistake(t, page, options);

          // The second wrong try from this new device waits: a ring counts the seconds down, Sign in is held.
          const waited = await wrongOnce();
          t.equal(waited.status(), 429, 'the second wrong try waits (429)');
          const ring = page.locator('[data-countdown-ring]');
          await ring.waitFor();
          t.pass('a countdown ring');
          t.equal(await page.evaluate('getComputedStyle(document.querySelector(".emoji-ring-left")).animationName'), 'emoji-ring-empty', 'emptying by a CSS animation');
          t.match(await page.evaluate('getComputedStyle(document.querySelector(".emoji-ring-left")).animationDuration') as string, /^(29|30)(\.\d+)?s$/, 'over the wait');
          // The number counts down: waited for until it changes (a second at most), not for a fixed time.
          const counter = ring.locator('[data-countdown-number]');
          const was = await counter.innerText();
          await page.waitForFunction(([el, text]) => el!.textContent !== text, [await counter.elementHandle(), was] as const);
          const [first, number] = [digits(was), digits(await counter.innerText())];
          t.ok(first >= 25 && first <= 30 && number < first && number >= first - 3, `its number counts down (${first}, then ${number})`);
          t.ok(await page.locator('button.go').isDisabled(), 'Sign in is held while it runs');
          t.ok((await page.getByRole('alert').innerText()).length > 10, 'the words are there for adults and screen readers');
          await fitsWithMistake(t, page, options);
          t.same(problems, [], 'no console errors');
        });
      }
      await t.test(`${size}: a pupil signs in by taps alone`, async (t) => {
        const touch = options.hasTouch === true;
        const { page, problems } = await openPage(t, browser, options);
        const req = await authorizationRequest(rp);
        const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);
        await openKeyboard(page, req, size === 'tablet' ? 'ar' : 'en');
        await page.locator('#username').fill(EMOJI_KID.username);
        let taps = 0;
        for (const n of EMOJI_KID.emoji) taps += await tapPicture(page, n, touch);
        t.ok(taps <= 12, `six pictures in ${taps} taps`);
        await shot(page, `${size}-06-six-chosen`);
        t.equal((await signInTap(page, touch)).status(), 303, 'signed in');
        await assertSignedIn(t, rp, req, await callback(), EMMY);
        t.same(problems, [], 'no console errors');
      });
    }
  });

  await t.test('without JavaScript: a tab is a form post, six taps and Sign in still sign in', async (t: Test) => {
    const { page, problems } = await openPage(t, browser, { ...SIZES[0]![1], javaScriptEnabled: false });
    const req = await authorizationRequest(rp);
    const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);
    await openKeyboard(page, req, 'en');
    const post = (click: () => Promise<void>) => keyboardPost(page, click);
    await page.locator('#username').fill(EMOJI_KID.username);
    t.equal(await post(() => page.locator('#username').press('Enter')), 400, 'Enter in the name field is Sign in (not a tab): too soon');
    t.equal(await page.getByRole('alert').innerText(), 'Tap all 6 of your pictures, then Sign in.', 'saying what to do');
    t.ok(await page.locator('.emoji-oops .emoji-face').isVisible(), 'with a face');
    t.equal(await post(() => page.locator('button[name="page"][value="things"]').click()), 200, 'a tab posts the form');
    t.ok(await keyOf(page, 'rocket').isVisible(), 'and the page asked for is shown');
    t.notOk(await keyOf(page, 'dog').isVisible(), 'the others are not');
    t.equal(await page.locator('#username').inputValue(), EMOJI_KID.username, 'the username kept');
    for (const n of EMOJI_KID.emoji) {
      if (!(await keyOf(page, n).isVisible())) t.equal(await post(() => tabOf(page, n).click()), 200);
      t.equal(await post(() => keyOf(page, n).click()), 200, `${n}: a post`);
    }
    t.same(await slotGlyphs(page), EMOJI_KID.emoji.map(glyph), 'the slots show the six');
    await shot(page, 'nojs-phone-six-chosen');
    await page.locator('button.go').click();
    await assertSignedIn(t, rp, req, await callback(), EMMY);
    t.same(problems, [], 'no console errors');
  });
});
