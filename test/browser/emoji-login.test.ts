import t from 'tap';
import type { Page } from 'playwright-core';
import { checkAccessibility } from '../helpers/axe.js';
import { assertSignedIn, browserSetUp, DESKTOP, PHONE, TABLET } from '../helpers/browser-flow.js';
import { answerCallback, focused, openPage, pageWidths, screenshot, tabTo, watchPage } from '../helpers/browser.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { EMOJI_BANK } from '../../src/formats/emoji-bank.js';
import { pageOf } from '../../interactions/emoji-pages.js';
import { EMOJI_KID } from '../helpers/children.js';
import { emojiKey, emojiTab, keyboardPost, slotGlyphs, tapPicture } from '../helpers/emoji-keyboard.js';
import { writeConfig } from '../helpers/config-file.js';
import { type AuthorizationRequest, authorizationRequest, DEMO_CLIENT } from '../helpers/relying-party.js';

const EMMY = { givenName: 'Emmy', type: 'student' };
const WRONG = ['cat', 'cat', 'cat', 'cat', 'cat', 'cat'];



const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();
/** A picture's key on the page shown (none when its page is not shown). */
const key = (page: Page, name: string) => page.getByRole('group', { name: 'Emoji keyboard' }).getByRole('button', { name, exact: true });
const signInButton = (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true });
const statusText = (page: Page) => page.locator('[data-emoji-status]').innerText();
const filledSlots = (page: Page) => page.locator('[data-emoji-slots] .emoji-slot.filled');
const glyph = (name: string) => EMOJI_BANK.find(([n]) => n === name)![1];

/** authorize → the interaction → straight to the emoji keyboard of Demo School (the chooser is tested once, in the first test). */
async function openKeyboard(page: Page, req: AuthorizationRequest) {
  await page.goto(req.url.href);
  const interaction = new URL(page.url());
  await page.goto(`${interaction.origin}${interaction.pathname}/emoji?org=demo-school`);
  await page.getByRole('group', { name: 'Emoji keyboard' }).waitFor();
}

/** The shown page's keys: how many a row, the smallest side of any key, and the rightmost key's edge (CSS pixels). */
const keyGrid = (page: Page) => page.locator('.emoji-grid:not([hidden]) .emoji-key').evaluateAll((keys) => {
  const boxes = keys.map((k) => k.getBoundingClientRect());
  return {
    columns: new Set(boxes.map((b) => Math.round(b.left))).size,
    smallest: Math.floor(Math.min(...boxes.flatMap((b) => [b.width, b.height]))),
    right: Math.ceil(Math.max(...boxes.map((b) => b.right))),
  };
});

/** Six taps and Sign in, returning the answer to the sign-in post (the page has loaded it when this resolves). */
async function tapSequence(page: Page, names: string[], touch = false) {
  for (const name of names) await tapPicture(page, name, touch);
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
  t.same(await page.getByRole('tab').allInnerTexts(), ['🐶\nAnimals', '🍎\nFood', '🌈\nNature', '🚗\nThings'], 'four pages of pictures, each tab a picture and a word');
  t.equal(await page.getByRole('tab', { selected: true }).innerText(), '🐶\nAnimals', 'the animals shown first');
  t.equal(await page.getByRole('tabpanel').getByRole('button').count(), 28, 'their 28 pictures');
  t.equal(await filledSlots(page).count(), 0, 'no slot filled');
  t.equal(await statusText(page), '0 of 6 pictures chosen', 'status says none chosen');
  await screenshot(page, 'emoji-login/01-keyboard-empty');
  await checkAccessibility(t, page, 'emoji keyboard');

  await page.getByLabel('Your username').fill(EMOJI_KID.username);
  for (const name of EMOJI_KID.emoji.slice(0, 3)) await tapPicture(page, name);
  t.equal(await filledSlots(page).count(), 3, 'three slots filled');
  t.same((await slotGlyphs(page)).slice(0, 3), EMOJI_KID.emoji.slice(0, 3).map(glyph), 'showing the pictures tapped');
  t.equal(await page.locator('.emoji-slot.next').count(), 1, 'and the next slot marked');
  t.equal(await page.getByRole('tab', { selected: true }).innerText(), '🚗\nThings', 'the page of the last picture is still shown');
  t.equal(await page.getByRole('status').innerText(), '3 of 6 pictures chosen', 'the live status counts (role=status)');
  t.equal(new URL(page.url()).search, '?org=demo-school', 'taps stay in the page (no form posts with JavaScript)');
  await screenshot(page, 'emoji-login/02-keyboard-half');
  await checkAccessibility(t, page, 'emoji keyboard, half filled');

  await tapPicture(page, 'star');
  await tapPicture(page, 'mouse'); // a slip…
  t.equal(await statusText(page), '5 of 6 pictures chosen');
  const deleteKey = page.getByRole('button', { name: 'Delete the last picture' });
  t.equal((await deleteKey.innerText()).replace(/\s+/g, ' ').trim(), '⌫ Delete', 'the delete key says "Delete" in words, not the glyph alone');
  await deleteKey.click(); // …corrected
  t.equal(await filledSlots(page).count(), 4, 'delete empties the last slot');
  t.equal(await statusText(page), '4 of 6 pictures chosen', 'and the status says so');
  t.equal(await page.locator('[data-emoji-value]').inputValue(), 'dog,apple,rocket,star', 'the last picture removed');
  await tapPicture(page, 'cat');
  await tapPicture(page, 'pizza');
  t.equal(await filledSlots(page).count(), 6, 'six slots filled');
  t.equal(await statusText(page), '6 of 6 pictures chosen');
  t.equal(await page.locator('[data-emoji-value]').inputValue(), EMOJI_KID.emoji.join(','), 'the form carries the six names');
  t.match(await focused(page), { tag: 'button', name: 'Sign in' }, 'after the sixth picture, focus moves to Sign in');
  await tapPicture(page, 'fish');
  t.equal(await statusText(page), '6 of 6 pictures chosen', 'a seventh tap is ignored');

  await signInButton(page).click();
  await assertSignedIn(t, rp, req, await callback(), EMMY);
  t.same(problems, [], 'no console errors (CSP violations, script errors, failed loads) on the way');
});

t.test('emoji password with the keyboard only: the tabs and each page one Tab stop, arrow keys move, Enter taps', async (t) => {
  const { rp, req, browser } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, DESKTOP);
  const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);
  await openKeyboard(page, req);

  t.match(await focused(page), { tag: 'input', name: 'Your username' }, 'the username field has focus on arrival');
  await page.keyboard.type(EMOJI_KID.username);
  const first = await tabTo(page, /^dog$/, 3);
  t.match(first, { tag: 'button', focusVisible: true }, 'Tab → Delete → the tabs → the page of pictures (its first)');
  t.notMatch(first.outline, /^none/, `with a visible focus ring (${first.outline})`);
  await page.keyboard.press('Tab');
  t.match(await focused(page), { tag: 'button', name: 'Sign in' }, 'the whole page of pictures is a single Tab stop: the next Tab leaves it for Sign in');
  await page.keyboard.press('Shift+Tab');
  t.match(await focused(page), { name: 'dog' }, 'Shift+Tab comes back to the picture last focused');
  await page.keyboard.press('Shift+Tab');
  t.match(await focused(page), { tag: 'button', name: /Animals/ }, 'Shift+Tab again: the tab of the page shown');

  const tabs = ['animals', 'food', 'nature', 'things'];
  let tab = 0;
  let at = 0;
  let presses = 0;
  const columns = 7;
  const shownNames = () => page.locator('.emoji-grid:not([hidden]) .emoji-key').evaluateAll((keys) => keys.map((k) => k.getAttribute('aria-label')!));
  let names = await shownNames();
  t.equal(await page.evaluate('getComputedStyle(document.querySelector(".emoji-grid:not([hidden])")).gridTemplateColumns.split(" ").length'), columns,
    `seven pictures a row at 1280px`);
  /** From the tabs, arrow keys to `page`'s tab (it is shown as the arrows reach it), then Tab into its pictures. */
  const pageTo = async (to: string) => {
    const steps = tabs.indexOf(to) - tab;
    for (let i = 0; i < Math.abs(steps); i += 1) await page.keyboard.press(steps > 0 ? 'ArrowRight' : 'ArrowLeft');
    presses += Math.abs(steps) + 1;
    tab = tabs.indexOf(to);
    t.equal(await page.getByRole('tab', { selected: true }).getAttribute('value'), to, `arrows on the tabs show ${to}`);
    await page.keyboard.press('Tab');
    names = await shownNames();
    at = 0;
  };
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
  };
  for (const [i, name] of EMOJI_KID.emoji.entries()) {
    const on = pageOf(name)!;
    if (i === 0) await pageTo(on); // from the tabs, where the checks above left the focus
    else if (tabs.indexOf(on) !== tab) {
      await page.keyboard.press('Shift+Tab'); // from the pictures back to the tabs
      presses += 1;
      await pageTo(on);
    }
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
  await page.keyboard.press('Shift+Tab');
  t.match(await focused(page), { name: 'pizza' }, 'Shift+Tab: back into the pictures, at the last one used');
  await page.keyboard.press('Home');
  t.match(await focused(page), { name: names[Math.floor(at / columns) * columns] }, 'Home: start of the row');
  await page.keyboard.press('End');
  t.match(await focused(page), { name: names[Math.min(Math.floor(at / columns) * columns + columns, names.length) - 1] }, 'End: end of the row');
  at = Math.min(Math.floor(at / columns) * columns + columns, names.length) - 1;
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
  const post = (click: () => Promise<void>) => keyboardPost(page, click);

  await page.getByLabel('Your username').fill(EMOJI_KID.username);
  const statuses: number[] = [];
  for (const name of [...EMOJI_KID.emoji.slice(0, 5), 'mouse']) {
    if (!(await emojiKey(page, name).isVisible())) {
      t.equal(await post(() => emojiTab(page, name).click()), 200, `a tab is a post too, answered with ${pageOf(name)} shown`);
    }
    statuses.push(await post(() => key(page, name).click()));
  }
  t.same(statuses, [200, 200, 200, 200, 200, 200], 'each tap is a post answered with the keyboard');
  t.equal(await statusText(page), '6 of 6 pictures chosen', 'the server counts the taps');
  t.equal(await page.locator('[data-emoji-value]').inputValue(), 'dog,apple,rocket,star,cat,mouse', 'and keeps them in the form');
  t.same(await slotGlyphs(page), ['dog', 'apple', 'rocket', 'star', 'cat', 'mouse'].map(glyph), 'the slots show the six, from the server');
  t.equal(await page.getByRole('group', { name: 'Animals' }).count(), 1, 'the page of the last picture is shown (mouse: the animals)');
  t.equal(await page.getByLabel('Your username').inputValue(), EMOJI_KID.username, 'the username is kept between taps');
  await screenshot(page, 'emoji-login/nojs-01-six-taps');
  t.equal(await post(() => page.getByRole('button', { name: 'Delete the last picture' }).click()), 200);
  t.equal(await statusText(page), '5 of 6 pictures chosen', 'delete is a post too');
  t.equal(await post(() => emojiTab(page, 'pizza').click()), 200);
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
  for (const name of EMOJI_KID.emoji.slice(0, 3)) await tapPicture(tablet.page, name, true);
  const border = (name: string) => key(tablet.page, name).evaluate((el) =>
    (globalThis as unknown as { getComputedStyle(e: unknown): { borderColor: string } }).getComputedStyle(el).borderColor);
  const untapped = 'bus'; // on the page shown, with rocket
  t.notOk(EMOJI_KID.emoji.includes(untapped), 'a key not tapped, to compare with');
  t.equal(await border(EMOJI_KID.emoji[2]!), await border(untapped), 'the last key tapped does not stay highlighted (a neighbour would see it)');
  // A full-page screenshot resizes the page without the touch emulation, where the key tapped last would
  // show as hovered: the pointer is moved off the keys first, so the picture shows what the tablet does.
  await tablet.page.mouse.move(0, 0);
  await screenshot(tablet.page, 'emoji-login/tablet-02-keyboard-half');
  for (const name of EMOJI_KID.emoji.slice(3)) await tapPicture(tablet.page, name, true);
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

t.test('on a phone: every page of pictures fits the screen, its keys big enough for a child’s finger, and it signs in', async (t) => {
  const { rp, browser } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, PHONE);
  const req = await authorizationRequest(rp);
  const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);
  await openKeyboard(page, req);
  await screenshotAndCheck(t, page, 'emoji-login/phone-01-keyboard-empty', 'emoji keyboard on a phone');
  t.equal(await page.locator('.emoji-key').count(), EMOJI_BANK.length, 'every picture is in the page, on one of its four pages');
  // From the narrowest phones in use (360 pixels) up: every key of every page at least 48 pixels square (a touch
  // screen), none off the screen.
  for (const width of [375, 360]) {
    await page.setViewportSize({ width, height: 667 });
    for (const name of ['dog', 'apple', 'sun', 'car']) {
      await emojiTab(page, name).tap();
      const grid = await keyGrid(page);
      t.ok(grid.columns >= 6, `${width} pixels wide, ${pageOf(name)}: ${grid.columns} pictures a row`);
      t.ok(grid.smallest >= 48 && grid.right <= width, `${width} pixels wide, ${pageOf(name)}: every key at least 48 pixels square (${grid.smallest}), none off the screen`);
    }
  }
  await page.setViewportSize(PHONE.viewport!);
  await page.getByLabel('Your username').fill(EMOJI_KID.username);
  for (const name of EMOJI_KID.emoji) await tapPicture(page, name, true);
  t.same(await slotGlyphs(page), EMOJI_KID.emoji.map(glyph), 'the slots show the six');
  await page.mouse.move(0, 0);
  await screenshot(page, 'emoji-login/phone-02-keyboard-full');
  await signInButton(page).tap();
  await assertSignedIn(t, rp, req, await callback(), EMMY);
  t.same(problems, [], 'no console errors');
});
