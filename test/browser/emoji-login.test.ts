import t from 'tap';
import type { Page } from 'playwright-core';
import { checkAccessibility } from '../helpers/axe.js';
import { assertSignedIn, browserSetUp, DESKTOP, PHONE, TABLET } from '../helpers/browser-flow.js';
import { answerCallback, focused, openPage, pageWidths, screenshot, tabTo, watchPage } from '../helpers/browser.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { EMOJI_BANK } from '../../src/formats/emoji-bank.js';
import { EMOJI_KID } from '../helpers/children.js';
import { writeConfig } from '../helpers/config-file.js';
import { type AuthorizationRequest, authorizationRequest, DEMO_CLIENT } from '../helpers/relying-party.js';

const EMMY = { givenName: 'Emmy', type: 'student' };
const WRONG = ['cat', 'cat', 'cat', 'cat', 'cat', 'cat'];



const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();
const key = (page: Page, name: string) => page.getByRole('group', { name: 'Emoji keyboard' }).getByRole('button', { name, exact: true });
const signInButton = (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true });
const statusText = (page: Page) => page.locator('[data-emoji-status]').innerText();
const filledDots = (page: Page) => page.locator('[data-emoji-dots] .dot.filled');
const dotGlyphs = async (page: Page) => (await filledDots(page).allInnerTexts()).join('');

/** authorize → the interaction → straight to the emoji keyboard of Demo School (the chooser is tested once, in the first test). */
async function openKeyboard(page: Page, req: AuthorizationRequest) {
  await page.goto(req.url.href);
  const interaction = new URL(page.url());
  await page.goto(`${interaction.origin}${interaction.pathname}/emoji?org=demo-school`);
  await page.getByRole('group', { name: 'Emoji keyboard' }).waitFor();
}

/** The emoji keys' layout: how many a row, the smallest side of any key, and the rightmost key's edge (CSS pixels). */
const keyGrid = (page: Page) => page.locator('.emoji-key').evaluateAll((keys) => {
  const boxes = keys.map((k) => k.getBoundingClientRect());
  return {
    columns: new Set(boxes.map((b) => Math.round(b.left))).size,
    smallest: Math.floor(Math.min(...boxes.flatMap((b) => [b.width, b.height]))),
    right: Math.ceil(Math.max(...boxes.map((b) => b.right))),
  };
});

/** Six taps and Sign in, returning the answer to the sign-in post (the page has loaded it when this resolves). */
async function tapSequence(page: Page, names: string[], touch = false) {
  for (const name of names) await (touch ? key(page, name).tap() : key(page, name).click());
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/emoji') && r.request().method() === 'POST'),
    touch ? signInButton(page).tap() : signInButton(page).click(),
  ]);
  await page.waitForLoadState();
  return res;
}

t.test('emoji password by mouse: school, method chooser, username, six pictures (with a correction), signed in', async (t) => {
  const { rp, req, browser } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, DESKTOP);
  const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);

  await page.goto(req.url.href);
  t.equal(await heading(page), 'Find your school', 'organisation picker first');
  await page.getByLabel('School name').fill('demo');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'Demo School' }).click();
  await page.waitForURL(/[?&]org=/);
  t.ok(await page.getByText('How do you sign in?').isVisible(), 'the method chooser');
  t.same(await page.locator('.method-label').allInnerTexts(), ['Emoji password', 'Magic badge', 'Username and password', 'I have a help code'],
    'three ways to sign in, and a help code');
  await checkAccessibility(t, page, 'method chooser');
  await screenshot(page, 'emoji-login/00-method-chooser');

  await page.getByRole('link', { name: /Emoji password/ }).click();
  await page.waitForURL(/\/emoji\?org=demo-school$/);
  t.equal(await heading(page), 'Demo School');
  t.ok(await page.getByText('Type your username, then tap your secret pictures').isVisible(), 'the prompt');
  t.match(await focused(page), { tag: 'input', name: 'Your username' }, 'the username field has focus');
  t.equal(await page.getByRole('group', { name: 'Emoji keyboard' }).getByRole('button').count(), 84, 'the whole bank');
  t.equal(await filledDots(page).count(), 0, 'no dots filled');
  t.equal(await statusText(page), '0 of 6 pictures chosen', 'status says none chosen');
  await screenshot(page, 'emoji-login/01-keyboard-empty');
  await checkAccessibility(t, page, 'emoji keyboard');

  await page.getByLabel('Your username').fill(EMOJI_KID.username);
  for (const name of EMOJI_KID.emoji.slice(0, 3)) await key(page, name).click();
  t.equal(await filledDots(page).count(), 3, 'three dots filled');
  t.equal(await dotGlyphs(page), '', 'dots, never the pictures (nothing to read over a shoulder)');
  t.equal(await page.getByRole('status').innerText(), '3 of 6 pictures chosen', 'the live status counts (role=status)');
  t.equal(new URL(page.url()).search, '?org=demo-school', 'taps stay in the page (no form posts with JavaScript)');
  await screenshot(page, 'emoji-login/02-keyboard-half');
  await checkAccessibility(t, page, 'emoji keyboard, half filled');

  await key(page, 'star').click();
  await key(page, 'mouse').click(); // a slip…
  t.equal(await statusText(page), '5 of 6 pictures chosen');
  const deleteKey = page.getByRole('button', { name: 'Delete the last picture' });
  t.equal((await deleteKey.textContent())?.replace(/\s+/g, ' ').trim(), '⌫ Delete', 'the delete key says "Delete" in words, not the glyph alone');
  await deleteKey.click(); // …corrected
  t.equal(await filledDots(page).count(), 4, 'delete empties the last dot');
  t.equal(await statusText(page), '4 of 6 pictures chosen', 'and the status says so');
  t.equal(await page.locator('[data-emoji-value]').inputValue(), 'dog,apple,rocket,star', 'the last picture removed');
  await key(page, 'cat').click();
  await key(page, 'pizza').click();
  t.equal(await filledDots(page).count(), 6, 'six dots filled');
  t.equal(await statusText(page), '6 of 6 pictures chosen');
  t.equal(await page.locator('[data-emoji-value]').inputValue(), EMOJI_KID.emoji.join(','), 'the form carries the six names');
  t.match(await focused(page), { tag: 'button', name: 'Sign in' }, 'after the sixth picture, focus moves to Sign in');
  await key(page, 'fish').click();
  t.equal(await statusText(page), '6 of 6 pictures chosen', 'a seventh tap is ignored');

  await signInButton(page).click();
  await assertSignedIn(t, rp, req, await callback(), EMMY);
  t.same(problems, [], 'no console errors (CSP violations, script errors, failed loads) on the way');
});

t.test('emoji password with the keyboard only: the grid is one Tab stop, arrow keys move, Enter taps', async (t) => {
  const { rp, req, browser } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, DESKTOP);
  const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);
  await openKeyboard(page, req);

  t.match(await focused(page), { tag: 'input', name: 'Your username' }, 'the username field has focus on arrival');
  await page.keyboard.type(EMOJI_KID.username);
  const first = await tabTo(page, /^dog$/, 3);
  t.match(first, { tag: 'button', focusVisible: true }, 'Tab → Sign in → Delete → the grid (its first picture)');
  t.notMatch(first.outline, /^none/, `with a visible focus ring (${first.outline})`);
  await page.keyboard.press('Tab');
  t.match(await focused(page), { tag: 'a', name: 'Sign in another way' }, 'the whole grid is a single Tab stop: the next Tab leaves it');
  await page.keyboard.press('Shift+Tab');
  t.match(await focused(page), { name: 'dog' }, 'Shift+Tab comes back to the picture last focused');

  const names = await page.getByRole('group', { name: 'Emoji keyboard' }).getByRole('button').evaluateAll(
    (keys) => keys.map((k) => k.getAttribute('aria-label')!));
  const columns = await page.evaluate(
    'getComputedStyle(document.querySelector("[data-emoji-grid]")).gridTemplateColumns.split(" ").length') as number;
  t.ok(columns >= 6, `the grid has ${columns} columns at 1280px`);
  let at = 0;
  let presses = 0;
  /** Arrow keys from the focused picture to `name`: rows first, then along the row. */
  const moveTo = async (name: string) => {
    const to = names.indexOf(name);
    const rows = Math.floor(to / columns) - Math.floor(at / columns);
    const cols = (to % columns) - (at % columns);
    for (let i = 0; i < Math.abs(rows); i += 1) await page.keyboard.press(rows > 0 ? 'ArrowDown' : 'ArrowUp');
    for (let i = 0; i < Math.abs(cols); i += 1) await page.keyboard.press(cols > 0 ? 'ArrowRight' : 'ArrowLeft');
    presses += Math.abs(rows) + Math.abs(cols);
    at = to;
    t.match(await focused(page), { tag: 'button', name, focusVisible: true }, `arrows reach ${name}`);
    // The bar of dots and buttons sticks to the top of the screen: a picture reached upwards must not be under it.
    t.equal(await page.evaluate(`(() => {
      const key = document.activeElement.getBoundingClientRect();
      const seen = document.elementFromPoint(key.left + key.width / 2, key.top + 4);
      return seen && seen.closest('button') === document.activeElement ? 'in view' : (seen ? seen.className : 'off screen');
    })()`), 'in view', `${name} is in view, not under the sticky bar`);
  };
  for (const [i, name] of EMOJI_KID.emoji.entries()) {
    await moveTo(name);
    await page.keyboard.press(i % 2 ? 'Space' : 'Enter');
    presses += 1;
    if (i === 2) await screenshot(page, 'emoji-login/keyboard-01-arrow-keys');
    if (i < 5) t.equal(await statusText(page), `${i + 1} of 6 pictures chosen`, `${i % 2 ? 'Space' : 'Enter'} taps ${name}`);
  }
  t.comment(`keyboard only: ${presses} key presses for six pictures (Tab alone would need about 170)`);
  t.ok(presses < 60, `a reasonable number of presses (${presses})`);
  t.equal(await statusText(page), '6 of 6 pictures chosen');
  const button = await focused(page);
  t.match(button, { tag: 'button', name: 'Sign in', focusVisible: true }, 'focus is on Sign in after the sixth picture');
  t.notMatch(button!.outline, /^none/, `with a visible focus ring (${button!.outline})`);
  await screenshot(page, 'emoji-login/keyboard-02-sign-in-focused');

  // Home/End and Backspace, then put the sixth picture back.
  await page.keyboard.press('Backspace');
  t.equal(await statusText(page), '5 of 6 pictures chosen', 'Backspace removes the last picture');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  t.match(await focused(page), { name: 'pizza' }, 'Tab, Tab: back into the grid, at the last picture used');
  await page.keyboard.press('Home');
  t.match(await focused(page), { name: names[Math.floor(at / columns) * columns] }, 'Home: start of the row');
  await page.keyboard.press('End');
  t.match(await focused(page), { name: names[Math.floor(at / columns) * columns + columns - 1] }, 'End: end of the row');
  at = Math.floor(at / columns) * columns + columns - 1;
  await moveTo('pizza');
  await page.keyboard.press('Enter');
  t.match(await focused(page), { name: 'Sign in' });
  await page.keyboard.press('Enter');

  await assertSignedIn(t, rp, req, await callback(), EMMY);
  t.same(problems, [], 'no console errors');
});

t.test('emoji password without JavaScript: every tap posts the form, and it still signs in', async (t) => {
  const { rp, req, browser } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, { ...DESKTOP, javaScriptEnabled: false });
  const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);
  await openKeyboard(page, req);

  /** A tap without JavaScript is a form post that answers with the keyboard again. */
  const post = async (click: () => Promise<void>) => {
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/emoji') && r.request().method() === 'POST'),
      page.waitForEvent('load'),
      click(),
    ]);
    return res.status();
  };

  await page.getByLabel('Your username').fill(EMOJI_KID.username);
  const statuses: number[] = [];
  for (const name of [...EMOJI_KID.emoji.slice(0, 5), 'mouse']) statuses.push(await post(() => key(page, name).click()));
  t.same(statuses, [200, 200, 200, 200, 200, 200], 'each tap is a post answered with the keyboard');
  t.equal(await statusText(page), '6 of 6 pictures chosen', 'the server counts the taps');
  t.equal(await page.locator('[data-emoji-value]').inputValue(), 'dog,apple,rocket,star,cat,mouse', 'and keeps them in the form');
  t.equal(await dotGlyphs(page), '', 'showing dots only');
  t.equal(await page.getByLabel('Your username').inputValue(), EMOJI_KID.username, 'the username is kept between taps');
  await screenshot(page, 'emoji-login/nojs-01-six-taps');
  t.equal(await post(() => page.getByRole('button', { name: 'Delete the last picture' }).click()), 200);
  t.equal(await statusText(page), '5 of 6 pictures chosen', 'delete is a post too');
  t.equal(await post(() => key(page, 'pizza').click()), 200);
  t.equal(await page.locator('[data-emoji-value]').inputValue(), EMOJI_KID.emoji.join(','), 'the sequence is right');

  await signInButton(page).click();
  await assertSignedIn(t, rp, req, await callback(), EMMY);
  t.same(problems, [], 'no console errors');
});

t.test('guessing in the browser: the third wrong sequence from a new device waits (429) and the wait counts down, the pupil’s own tablet still signs in', async (t) => {
  const { lanyard, rp, browser } = await browserSetUp(t, { config: writeConfig((c) => { c.login_throttling = { new_device_base_wait_seconds: 30 }; }) });

  // The pupil's classroom tablet signs in once: it becomes a known device for emoji-kid.
  const tabletContext = await browser.newContext(TABLET);
  t.teardown(() => tabletContext.close());
  const tablet = watchPage(await tabletContext.newPage());
  const firstReq = await authorizationRequest(rp);
  const firstCallback = await answerCallback(tablet.page, DEMO_CLIENT.redirectUri);
  await openKeyboard(tablet.page, firstReq);
  await screenshot(tablet.page, 'emoji-login/tablet-01-keyboard-empty');
  for (const [name, locator] of [
    ['a picture key', key(tablet.page, 'dog')],
    ['the Sign in button', signInButton(tablet.page)],
    ['the delete key', tablet.page.getByRole('button', { name: 'Delete the last picture' })],
  ] as const) {
    const box = (await locator.boundingBox())!;
    t.ok(box.width >= 56 && box.height >= 56, `on a tablet, ${name} is a big touch target (${Math.round(box.width)}x${Math.round(box.height)}px)`);
  }
  for (const way of await tablet.page.locator('.step-links a, form.secondary button').all()) {
    const box = (await way.boundingBox())!;
    t.ok(box.height >= 44, `on a tablet, "${(await way.textContent())?.trim()}" is at least 44px high (${Math.round(box.height)}px)`);
  }
  const widths = await pageWidths(tablet.page);
  t.ok(widths.page <= widths.device, `no sideways scrolling on the tablet (${widths.page} ≤ ${widths.device}px)`);
  await tablet.page.getByLabel('Your username').fill(EMOJI_KID.username);
  for (const name of EMOJI_KID.emoji.slice(0, 3)) await key(tablet.page, name).tap();
  const border = (name: string) => key(tablet.page, name).evaluate((el) =>
    (globalThis as unknown as { getComputedStyle(e: unknown): { borderColor: string } }).getComputedStyle(el).borderColor);
  const untapped = 'fox';
  t.notOk(EMOJI_KID.emoji.includes(untapped), 'a key not tapped, to compare with');
  t.equal(await border(EMOJI_KID.emoji[2]!), await border(untapped), 'the last key tapped does not stay highlighted (a neighbour would see it)');
  // A full-page screenshot resizes the page without the touch emulation, where the key tapped last would
  // show as hovered: the pointer is moved off the keys first, so the picture shows what the tablet does.
  await tablet.page.mouse.move(0, 0);
  await screenshot(tablet.page, 'emoji-login/tablet-02-keyboard-half');
  for (const name of EMOJI_KID.emoji.slice(3)) await key(tablet.page, name).tap();
  await signInButton(tablet.page).tap();
  await assertSignedIn(t, rp, firstReq, await firstCallback(), EMMY);

  // Someone guesses from another computer.
  const req = await authorizationRequest(rp);
  const { page, problems } = await openPage(t, browser, DESKTOP);
  await openKeyboard(page, req);
  const statuses: number[] = [];
  let last!: Awaited<ReturnType<typeof tapSequence>>;
  // (This test's policy: a new device's first wait is 30 s, so the page can be looked at before it ends.)
  for (let i = 0; i < 3; i += 1) {
    await page.getByLabel('Your username').fill(EMOJI_KID.username);
    last = await tapSequence(page, WRONG);
    statuses.push(last.status());
    if (i === 0) {
      t.equal(await page.getByRole('alert').innerText(), 'Those pictures do not match. Check your username and try again.',
        'wrong pictures: a generic message, announced as an alert');
      t.equal(await page.getByLabel('Your username').inputValue(), EMOJI_KID.username, 'username kept');
      t.equal(await statusText(page), '0 of 6 pictures chosen', 'the pictures are cleared');
      await screenshot(page, 'emoji-login/03-wrong-pictures');
      await checkAccessibility(t, page, 'emoji keyboard with an error');
    }
  }
  t.same(statuses, [401, 401, 429], 'a new device: two free failures, the third answer is 429');
  t.equal(last.headers()['retry-after'], '30', 'Retry-After: 30');
  t.match(await page.getByRole('alert').innerText(), /^Too many tries\. Please wait (30|2\d) seconds, then try again — or ask your teacher\.$/,
    'the throttled message');
  let shown = '';
  for (let i = 0; i < 30 && !/Please wait (2[0-8]|1\d) seconds/.test(shown); i += 1) {
    await page.waitForTimeout(250);
    shown = await page.getByRole('alert').innerText();
  }
  t.match(shown, /Please wait (2[0-8]|1\d) seconds/, 'the wait counts down in the page');
  t.ok(await signInButton(page).isDisabled(), 'while it runs, Sign in is held');
  t.ok(await key(page, 'dog').isDisabled(), 'and so are the picture keys');
  t.ok(await page.getByRole('button', { name: /^Cancel/ }).isEnabled(), 'the way out is not');
  await screenshot(page, 'emoji-login/04-throttled');
  await checkAccessibility(t, page, 'emoji keyboard, throttled');
  // The server holds the wait too: with the buttons given back (as a page without JavaScript has them).
  await page.evaluate("document.querySelectorAll('button[disabled]').forEach((b) => { b.disabled = false; })");
  const blocked = await tapSequence(page, EMOJI_KID.emoji);
  t.equal(blocked.status(), 429, 'the guessing computer waits, even with the right pictures');

  // Back on the tablet, later (prompt=login: the app asks for a fresh sign-in, as after the browser was closed).
  const againReq = await authorizationRequest(rp, { prompt: 'login' });
  const again = watchPage(await tabletContext.newPage());
  const againCallback = await answerCallback(again.page, DEMO_CLIENT.redirectUri);
  await openKeyboard(again.page, againReq);
  await again.page.getByLabel('Your username').fill(EMOJI_KID.username);
  const ok = await tapSequence(again.page, EMOJI_KID.emoji, true);
  t.equal(ok.status(), 303, 'the known tablet is not locked out');
  await assertSignedIn(t, rp, againReq, await againCallback(), EMMY);
  t.ok(lanyard.logs.some((l) => l.includes('"event":"login.throttled"')), 'login.throttled logged');
  t.same([...problems, ...tablet.problems, ...again.problems], [], 'no console errors');
});

t.test('on a phone: the keyboard fits the screen, its keys big enough for a child’s finger, and it signs in', async (t) => {
  const { rp, browser } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, PHONE);
  const req = await authorizationRequest(rp);
  const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);
  await openKeyboard(page, req);
  const widths = await screenshotAndCheck(t, page, 'emoji-login/phone-01-keyboard-empty', 'emoji keyboard on a phone');
  const keys = await page.locator('.emoji-key').all();
  t.equal(keys.length, EMOJI_BANK.length, 'every picture');
  for (const [i, k] of keys.entries()) {
    const box = (await k.boundingBox())!;
    if (i === 0 || i === keys.length - 1) t.ok(box.width >= 44 && box.height >= 44 && box.x + box.width <= widths.device, `key ${i + 1}: ${Math.round(box.width)}x${Math.round(box.height)}px, on the screen`);
  }
  // Six a row, from the narrowest phones in use (360 pixels) up: 14 rows of keys to scroll through, not 17.
  for (const width of [375, 360]) {
    await page.setViewportSize({ width, height: 667 });
    const grid = await keyGrid(page);
    t.ok(grid.columns >= 6, `${width} pixels wide: ${grid.columns} pictures a row`);
    t.ok(grid.smallest >= 44 && grid.right <= width, `${width} pixels wide: every key at least 44 pixels square (${grid.smallest}), none off the screen`);
  }
  await page.setViewportSize(PHONE.viewport!);
  await page.getByLabel('Your username').fill(EMOJI_KID.username);
  for (const name of EMOJI_KID.emoji) await key(page, name).tap();
  // The last key tapped is far down the grid: the dots and Sign in have stayed in view above it.
  await key(page, 'teddy bear').scrollIntoViewIfNeeded();
  const bar = (await signInButton(page).boundingBox())!;
  t.ok(bar.y >= 0 && bar.y + bar.height <= page.viewportSize()!.height, `Sign in still on the screen at the grid's end (y ${Math.round(bar.y)})`);
  await page.mouse.move(0, 0);
  await screenshot(page, 'emoji-login/phone-02-keyboard-full');
  await signInButton(page).tap();
  await assertSignedIn(t, rp, req, await callback(), EMMY);
  t.same(problems, [], 'no console errors');
});
