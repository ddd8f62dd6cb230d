import type { Locator, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { emojiTab } from '../helpers/emoji-keyboard.js';
import { issueEmojiPassword } from '../../src/accounts/user-emoji.js';
import { ManualClock } from '../../src/clock.js';
import type { EmojiName } from '../../src/formats/emoji-bank.js';
import { CHROMEBOOK } from '../helpers/browser-flow.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TILE_PUPILS } from '../helpers/class-sign-in.js';
import { putClass } from '../helpers/class-roster.js';
import { signInToConsole } from '../helpers/console-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { putStaffUser } from '../helpers/school-console.js';

/**
 * A class link, end to end in Chromium (docs/school-console.md → Class links, docs/childrens-sign-in.md → Class
 * sign-in): a teacher signs in to the school console, opens their class, makes a link for an hour and reads its
 * code and link from the card; a fresh browser (no cookies) opens the link and the pupil goes from the tiles to
 * their dashboard with one tap on their name, six on their pictures and the Sign in tap, typing nothing. An
 * adult types the code at /class instead, and reaches the same tiles. The teacher revokes the link in the
 * console: the pupil's browser, starting a new sign-in, sees no names, and the link opens the "ended" page; a
 * link that runs out (the clock moved on) does the same. Screenshots in test-artifacts/screenshots/class-link-journey/.
 */

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } as const;
const HOUR = 3_600_000;
const NAMES = [...new Set(TILE_PUPILS.flat())];

/** Counts the taps, and any typing (there must be none): the pupil's part of the journey. */
function watchHands(page: Page) {
  const hands = { taps: 0, tabs: 0, typed: 0 };
  const typing = () => { hands.typed += 1; return Promise.resolve(); };
  page.keyboard.type = typing;
  page.keyboard.insertText = typing;
  page.fill = typing;
  page.type = typing;
  const tap = async (locator: Locator) => { hands.taps += 1; await locator.click(); };
  /**
   * A picture by its name. The keyboard keeps pictures behind tabs (its four pages): the tab of the page that
   * holds it is tapped first when that page is not shown (counted apart, as `tabs`).
   */
  const tapPicture = async (name: string) => {
    const picture = page.getByRole('button', { name, exact: true });
    if (!(await picture.isVisible())) {
      hands.tabs += 1;
      await emojiTab(page, name).click();
    }
    await tap(picture);
  };
  return { hands, tap, tapPicture };
}

t.test('a class link from the console: made, opened in a fresh browser, signed in by taps; revoked and expired, no names', async (t) => {
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock });
  const { url, store } = lanyard;
  const organisation = (await store.findOrganisation('demo-school'))!;
  const tess = await putStaffUser(store, organisation, 'tess', 'Tess', 'Teacher');
  const made = await putClass(store, {
    organisationId: organisation.id, sourcedId: 'kestrel', title: 'Class Kestrel', pupils: TILE_PUPILS, prefix: 'kestrel.pupil',
    others: [{ user: tess.user, role: 'teacher' }],
  });
  const peregrine = made.pupils[1]!;
  await store.setSuspended(made.pupils[3]!.id, clock.now().toISOString());
  const { names: emoji } = await issueEmojiPassword(store, peregrine);
  const browser = await launchBrowser(t);
  const shot = (t: Test, page: Page, name: string, label: string) => screenshotAndCheck(t, page, `class-link-journey/${name}`, label);

  // The teacher, at a Chromebook: the class page, a link for an hour, its card.
  const teacher = await openPage(t, browser, CHROMEBOOK);
  const tp = teacher.page;
  await signInToConsole(tp, url, organisation.name, tess.credentials);
  await tp.getByRole('link', { name: 'Class Kestrel' }).first().click();
  await tp.getByRole('heading', { level: 1, name: 'Class Kestrel' }).waitFor();
  const classUrl = tp.url();

  /** Makes a link for an hour on the class page; returns its code and link as the card shows them. */
  const makeLink = async (t: Test, name: string) => {
    await tp.goto(`${classUrl}#class-link`);
    await tp.getByLabel('1 hour').check();
    await tp.getByRole('button', { name: 'Make a class link' }).click();
    await tp.waitForURL(/\/class-link$/);
    const code = (await tp.locator('.class-link-code [aria-hidden="true"]').innerText()).trim();
    const link = (await tp.locator('.class-link-url').innerText()).trim();
    t.match(code, /^[0-9A-Z]{5}-[0-9A-Z]{5}$/, `${name}: the code, on the card`);
    t.equal(link, `${url}/class/${code.replace('-', '')}`, `${name}: the link, on the card`);
    return { code, link };
  };

  const first = await makeLink(t, 'the first link');
  await shot(t, tp, '01-console-card', 'the class link’s card');
  await tp.getByRole('link', { name: 'Done' }).click();
  await tp.locator('#class-link').scrollIntoViewIfNeeded();
  t.equal(await tp.locator('section:has(#class-link) tbody tr').count(), 1, 'the panel lists the live link');
  t.match(await tp.locator('section:has(#class-link)').innerText(), /Tess Teacher/, 'made by the teacher');
  await shot(t, tp, '02-console-panel', 'the class page’s panel with the live link');

  // A pupil: a fresh browser opens the link (scanned or clicked), then taps only.
  const pupil = await openPage(t, browser, PHONE);
  const pp = pupil.page;
  t.same(await pp.context().cookies(), [], 'a fresh browser: no cookies');
  const { hands, tap, tapPicture } = watchHands(pp);
  await pp.goto(first.link);
  await pp.waitForURL(/\/interaction\//);
  t.equal(await pp.locator('.prompt').innerText(), 'Who are you?', 'the link opens the name tiles');
  t.equal(await pp.locator('.name-tile').count(), 3, 'three tiles (the suspended pupil has none)');
  await shot(t, pp, '03-pupil-tiles', 'the tiles the link opened');
  await tap(pp.getByRole('link', { name: 'Peregrine', exact: true }));
  await pp.getByText(/^Hi \u2068Peregrine\u2069! Tap your pictures$/).waitFor();
  await shot(t, pp, '04-pupil-keyboard', 'Peregrine’s pictures');
  for (const name of emoji as EmojiName[]) await tapPicture(name);
  await tap(pp.getByRole('button', { name: 'Sign in', exact: true }));
  await pp.waitForURL(`${url}/`);
  t.equal(await pp.getByRole('heading', { level: 1 }).innerText(), 'Hello, Peregrine', 'Peregrine’s dashboard');
  t.equal(hands.taps, 1 + emoji.length + 1, `1 tap on the name, ${emoji.length} on pictures, 1 on Sign in (and ${hands.tabs} on picture tabs)`);
  t.ok(hands.tabs <= emoji.length, 'at most one tab a picture');
  t.equal(hands.typed, 0, 'nothing typed');
  await shot(t, pp, '05-pupil-dashboard', 'Peregrine’s dashboard');
  t.same(pupil.problems, [], 'nothing went wrong in the pupil’s browser');

  await t.test('an adult types the code at /class instead: the same tiles', async (t) => {
    const adult = await openPage(t, browser, PHONE);
    await adult.page.goto(`${url}/class`);
    await adult.page.locator('#class-code').fill(first.code.toLowerCase());
    await adult.page.locator('form.class-code-form button[type="submit"]').click();
    await adult.page.waitForURL(/\/interaction\//);
    t.equal(await adult.page.locator('.name-tile').count(), 3, 'the typed code opens the tiles');
  });

  await t.test('revoked in the console: no names, and the link has ended', async (t) => {
    await tp.goto(`${classUrl}#class-link`);
    await tp.locator('section:has(#class-link)').getByRole('button', { name: /^Revoke/ }).click();
    await tp.getByText('The class link is revoked: it opens nothing from now on.').waitFor();
    t.match(await tp.locator('section:has(#class-link)').innerText(), /No class link is live now\./, 'the panel lists none');
    await shot(t, tp, '06-console-revoked', 'the panel after revoking');

    // The pupil signs out; the next sign-in in this browser (which still holds the link's cookie) names no one.
    await pp.getByRole('button', { name: 'Sign out' }).click();
    await pp.goto(`${url}/sign-in?org=demo-school`);
    await pp.getByText('How do you sign in?').waitFor();
    t.equal(await pp.locator('.name-tile').count(), 0, 'revoked: no tiles');
    const html = await pp.content();
    t.notOk(NAMES.some((n) => html.includes(n)), 'revoked: no names');
    await shot(t, pp, '07-pupil-after-revoke', 'the sign-in after the link was revoked');
    const res = await pp.goto(first.link);
    t.equal(res?.status(), 404, 'the link answers 404');
    t.notOk(pp.url().includes('/interaction/'), 'and goes nowhere');
    const ended = await pp.content();
    t.notOk(NAMES.some((n) => ended.includes(n)), 'naming no one');
    await shot(t, pp, '08-pupil-link-ended', 'the revoked link’s page');
  });

  await t.test('a link that runs out: no names, and the link has ended', async (t) => {
    const second = await makeLink(t, 'the second link');
    const later = await openPage(t, browser, PHONE);
    await later.page.goto(second.link);
    await later.page.waitForURL(/\/interaction\//);
    t.equal(await later.page.locator('.name-tile').count(), 3, 'live: the tiles');
    clock.advance(HOUR + 60_000);
    await later.page.goto(`${url}/sign-in?org=demo-school`);
    await later.page.getByText('How do you sign in?').waitFor();
    t.equal(await later.page.locator('.name-tile').count(), 0, 'expired: no tiles');
    const html = await later.page.content();
    t.notOk(NAMES.some((n) => html.includes(n)), 'expired: no names');
    const res = await later.page.goto(second.link);
    t.equal(res?.status(), 404, 'the expired link answers 404');
    await shot(t, later.page, '09-pupil-link-expired', 'the expired link’s page');
    t.same(later.problems, [], 'nothing went wrong in the browser');
  });
  t.same(teacher.problems, [], 'nothing went wrong in the console');
});
