import type { BrowserContextOptions, Page } from 'playwright-core';
import tap, { type Test } from 'tap';
import { THREE_SIZES } from './browser-flow.js';
import { focused, launchBrowser, openPage, pageWidths, wordsBroken } from './browser.js';
import { createDeveloper } from './developer.js';
import { narrowFormButtons } from './form-buttons.js';
import { type Lanyard, startLanyard } from './lanyard.js';
import { screenshotAndCheck } from './page-check.js';

/**
 * The app pages of the developer area in Chromium (docs/developer-area.md), with a
 * screenshot of every page and axe on every page, as flows done by clicking and typing like a person, at one size each, for the test files
 * test/browser/developer-apps*.test.ts to run at a phone (375), a tablet (768) and a Chromebook (1366x768) width.
 * An app from registration to deletion runs one size a file, so that no file comes near tap's time limit on a
 * slow VM (all three sizes in one file took 164 s of its 180).
 */

type Browser = Awaited<ReturnType<typeof launchBrowser>>;

export const CALLBACK = 'http://localhost:8080/callback';

/** A developer account (an invitation accepted over HTTP) whose session goes into a new browser context. */
export async function signedInPage(t: Test, lanyard: Lanyard, browser: Browser, name: string, size: BrowserContextOptions) {
  const dev = await createDeveloper(lanyard, { name });
  const opened = await openPage(t, browser, size);
  const session = dev.browser.cookies.get('lanyard_developer');
  if (!session) throw new Error('no developer session after accepting the invitation');
  // Only the session: the welcome message waiting in its own cookie belongs to the browser that accepted.
  await opened.page.context().addCookies([{ name: 'lanyard_developer', value: session, domain: new URL(lanyard.url).hostname, path: '/developer' }]);
  return { ...opened, id: dev.id, email: dev.email };
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();

/**
 * How the two rows of links lie: each row's items on one line, the current one wholly in view (strip.js
 * scrolls a row that does not fit), and the brand beside the sign-out button rather than above it.
 */
const STRIPS = `(() => {
  const rows = [...document.querySelectorAll('.scroll-strip')].map((strip) => {
    const box = strip.getBoundingClientRect();
    const items = [...strip.children].map((li) => li.getBoundingClientRect());
    const current = strip.querySelector('[aria-current="page"]')?.getBoundingClientRect();
    return {
      lines: new Set(items.map((r) => Math.round(r.top))).size,
      currentInView: !current || (current.left >= box.left - 1 && current.right <= box.right + 1),
    };
  });
  const menu = document.querySelector('.dev-nav-list');
  const brand = document.querySelector('.dev-brand')?.getBoundingClientRect();
  const signOut = document.querySelector('.dev-nav-user button')?.getBoundingClientRect();
  return { rows, menuWhole: !menu || menu.scrollWidth <= menu.clientWidth + 1,
    brandBesideSignOut: !brand || !signOut || (brand.top < signOut.bottom && signOut.top < brand.bottom) };
})()`;

/** Every visible button of the page: what it says, how tall it is, and how it looks. */
const BUTTONS = `[...document.querySelectorAll('main button:not(.link), main .button-link')]
  .filter((e) => e.offsetParent !== null)
  .map((e) => {
    const style = getComputedStyle(e);
    const kind = e.classList.contains('danger') ? 'danger' : e.classList.contains('remove') || e.classList.contains('remove-link') ? 'remove' : 'other';
    return { text: e.textContent.trim().replace(/\\s+/g, ' '), height: Math.round(e.getBoundingClientRect().height), kind,
      look: [style.backgroundColor, style.color, style.borderTopColor].join(' ') };
  })`;
type Button = { text: string; height: number; kind: 'danger' | 'remove' | 'other'; look: string };
/** The first look seen of each kind of button: every page's must match it. */
const looks = new Map<string, string>();

/** Screenshot, axe and width for the page as it is now, and the area's own checks. */
async function look(t: Test, page: Page, name: string, label: string): Promise<void> {
  await screenshotAndCheck(t, page, `developer-apps/${name}`, label);
  if (name.startsWith('phone')) t.same(await narrowFormButtons(page), [], `${label}: every form's button spans the phone's width`);
  const strips = await page.evaluate(STRIPS) as { rows: { lines: number; currentInView: boolean }[]; menuWhole: boolean; brandBesideSignOut: boolean };
  t.ok(strips.menuWhole, `${label}: the menu's four links all on the screen, without scrolling`);
  t.ok(strips.rows.length > 0 && strips.rows.every((r) => r.lines === 1), `${label}: the menu and the app's tabs each on one line`, strips);
  t.ok(strips.rows.every((r) => r.currentInView), `${label}: the current page's link in view`, strips);
  t.ok(strips.brandBesideSignOut, `${label}: the brand and Sign out on one row`);
  const widths = await pageWidths(page);
  const card = (await page.locator('main.card').boundingBox())!;
  t.ok(card.x > 0 && card.x + card.width < widths.device, `${label}: the card clear of the screen's edges (${Math.round(card.x)}–${Math.round(card.x + card.width)} of ${widths.device}px)`);
  // A URL breaks after a slash only ("oauth/aut/horize" on a tablet was a URL no one could read).
  t.same(await wordsBroken(page, '.breakable > span', { afterHyphen: false }), [], `${label}: URLs and email addresses broken only where they may be (after a slash, an @ or a dot)`);
  // Whatever takes something away looks the same on every page: red, outlined in a list, filled to confirm.
  const buttons = await page.evaluate(BUTTONS) as Button[];
  const destructive = buttons.filter((b) => /^(Revoke|Remove|Delete|Withdraw|Leave)\b/.test(b.text));
  t.same(destructive.filter((b) => b.kind === 'other').map((b) => b.text), [], `${label}: every button that takes something away is red`);
  t.same(buttons.filter((b) => b.kind !== 'other' && b.height < 44).map((b) => `${b.text} ${b.height}px`), [], `${label}: red buttons at least 44 px high`);
  for (const b of buttons.filter((x) => x.kind !== 'other')) {
    const key = `${name.split('-')[0]} ${b.kind}`;
    // A confirmation's red button is one size too, whether it is a form of its own or a longer form's.
    const seen = b.kind === 'danger' ? `${b.look} ${b.height}px` : b.look;
    if (!looks.has(key)) looks.set(key, seen);
    t.equal(seen, looks.get(key), `${label}: “${b.text}” looks like every other ${b.kind} button`);
  }
}

/** The test of an app from registration to deletion at one of THREE_SIZES, in the calling test file. */
export function appFromRegistrationToDeletionTest(size: string): void {
  const options = new Map(THREE_SIZES).get(size);
  if (!options) throw new Error(`not one of THREE_SIZES: ${size}`);
  tap.test(`an app from registration to deletion, at a ${size} width`, async (t) => {
    const lanyard = await startLanyard(t);
    const browser = await launchBrowser(t);
    await appFromRegistrationToDeletion(t, lanyard, browser, size, options);
  });
}

/** An app from registration to deletion at one size, with a teammate invited and accepting on the apps page. */
async function appFromRegistrationToDeletion(t: Test, lanyard: Lanyard, browser: Browser, size: string, options: BrowserContextOptions): Promise<void> {
  const { page, problems } = await signedInPage(t, lanyard, browser, 'Ada', options);
  const teammate = await signedInPage(t, lanyard, browser, 'Bob', options);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: lanyard.url });
  const shot = (n: string, label: string) => look(t, page, `${size}-${n}`, `${label} (${size})`);

  await page.goto(`${lanyard.url}/developer`);
  t.equal(await heading(page), 'Your apps');
  await shot('01-no-apps', 'the empty list of apps');

  await page.getByRole('link', { name: 'Register an app' }).click();
  await page.waitForURL(/\/developer\/apps\/new$/);
  t.match(await focused(page), { tag: 'input', name: /^Name/ }, 'the name field has focus');
  await shot('02-register', 'the registration form');

  await page.getByLabel('Homepage (optional)').fill('http://reading-quest.example');
  await page.getByRole('button', { name: 'Register the app' }).click();
  await page.waitForLoadState();
  t.match(await page.locator('#f-name-error').innerText(), /Give the app a name/);
  t.match(await page.locator('#f-homepage_url-error').innerText(), /must use https/);
  const red = await page.evaluate(`getComputedStyle(document.querySelector('.field-error')).color`);
  t.equal(await page.evaluate(`getComputedStyle(document.getElementById('f-homepage_url')).borderTopColor`), red, 'the refused field outlined in the errors\' red, as on every form');
  const summary = page.getByRole('alert').filter({ hasText: 'Please correct the 2 fields marked below' });
  t.same(await summary.getByRole('link').allInnerTexts(), [
    await page.locator('#f-name-error').innerText(), await page.locator('#f-homepage_url-error').innerText(),
  ], 'above the form, a summary says how many fields were refused and lists each problem');
  t.equal(await summary.getByRole('link').first().evaluate((el) =>
    (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color), red, 'in the errors\' red');
  await summary.getByRole('link').nth(1).click();
  t.match(await focused(page), { tag: 'input', name: /^Homepage/ }, 'each problem links to its field');
  await shot('03-register-errors', 'the registration form with errors');

  await page.getByLabel('Name').fill('Reading Quest');
  await page.getByLabel('Description (optional)').fill('Reading practice with a book for every week of year 3.');
  await page.getByLabel('Homepage (optional)').fill('https://reading-quest.example');
  await page.getByRole('button', { name: 'Register the app' }).click();
  await page.waitForURL(/\/developer\/apps\/app_[0-9a-f]{32}$/);
  const clientId = /app_[0-9a-f]{32}/.exec(page.url())![0];
  t.equal(await heading(page), 'Reading Quest');
  t.match(await page.getByRole('status').first().innerText(), /is registered/);
  await shot('04-overview', 'the overview');

  await page.getByRole('navigation', { name: 'App settings' }).getByRole('link', { name: 'Credentials' }).click();
  await page.waitForURL(/\/credentials$/);
  await page.getByLabel('Add a callback URL').fill('http://reading-quest.example/callback');
  await page.getByRole('button', { name: 'Add callback URL' }).click();
  await page.waitForLoadState();
  t.match(await page.locator('#f-redirect_uri-error').innerText(), /must use https/);
  await shot('05-callback-refused', 'a refused callback URL');
  await page.getByLabel('Add a callback URL').fill(CALLBACK);
  await page.getByRole('button', { name: 'Add callback URL' }).click();
  await page.waitForURL(/\/credentials#callbacks$/);
  await page.getByLabel('Add a callback URL').fill('https://reading-quest.example/auth/callback');
  await page.getByRole('button', { name: 'Add callback URL' }).click();
  await page.waitForURL(/\/credentials#callbacks$/);

  await page.getByLabel('Label').fill('Production server');
  await page.getByRole('button', { name: 'Create secret' }).click();
  await page.waitForURL(/\/credentials#new-secret-box$/);
  const secret = await page.locator('#new-secret').innerText();
  t.match(secret, /^[A-Za-z0-9_-]{43}$/, 'the new secret is shown');
  const copy = page.getByRole('button', { name: 'Copy the new secret' });
  t.ok(await copy.isVisible(), 'with a copy button (copy.js shows it)');
  await copy.click();
  // A locator wait, not waitForFunction: a string predicate is eval'd in the page, which its CSP forbids.
  await page.locator('[data-copy="new-secret"]', { hasText: 'Copied' }).waitFor();
  t.equal(await page.evaluate('navigator.clipboard.readText()'), secret, 'the secret is on the clipboard');
  await shot('06-secret-shown-once', 'the new secret');
  await page.getByLabel('Label').fill('Rotation 2025');
  await page.getByLabel('Expires on (optional)').fill('2099-12-31');
  await page.getByRole('button', { name: 'Create secret' }).click();
  await page.waitForURL(/#new-secret-box$/);
  await page.reload();
  t.equal(await page.locator('#new-secret').count(), 0, 'after a reload the secret is gone');
  t.notOk((await page.content()).includes(secret), 'and so is the first one');
  await shot('07-credentials', 'the credentials page');

  await page.getByRole('link', { name: 'Revoke the secret Production server' }).click();
  await page.waitForURL(/\/revoke$/);
  await shot('08-revoke-confirm', 'the revoke confirmation');
  await page.getByRole('button', { name: 'Revoke the secret' }).click();
  await page.waitForURL(/\/credentials#secrets$/);
  t.match(await page.getByRole('status').first().innerText(), /revoked/);

  await page.goto(`${lanyard.url}/developer/apps/${clientId}/scopes`);
  t.ok(await page.getByRole('checkbox', { name: /openid/ }).isChecked(), 'openid chosen from the start');
  await shot('09-scopes', 'the default scopes');
  await page.getByRole('checkbox', { name: /openid/ }).uncheck();
  await page.getByRole('button', { name: 'Save default scopes' }).click();
  await page.waitForURL(/\/scopes$/);
  t.equal(await page.getByRole('status').first().innerText(), 'Default scopes cleared.', 'said as it is, not "saved" above the warning');
  t.match(await page.locator('.warning').innerText(), /dashboard launches will not work/);
  await shot('10-no-scopes', 'no default scopes, with the warning');
  await page.getByRole('checkbox', { name: /openid/ }).check();
  await page.getByRole('button', { name: 'Save default scopes' }).click();
  await page.waitForURL(/\/scopes$/);

  await page.goto(`${lanyard.url}/developer/apps/${clientId}/logout-url`);
  await page.getByLabel('Set a logout URL').fill('https://reading-quest.example/signed-out');
  await page.getByRole('button', { name: 'Save logout URL' }).click();
  await page.waitForURL(/\/logout-url$/);
  await shot('11-logout-url', 'the logout URL');

  await page.getByRole('link', { name: 'Dashboard launch', exact: true }).click();
  await page.waitForURL(/\/initiate-login-uri$/);
  t.equal(await page.getByRole('heading', { level: 2 }).innerText(), 'Dashboard launch');
  t.match(await page.locator('.app-section').innerText(), /sends the browser here with iss, login_hint and target_link_uri/, 'what it is for');
  await page.getByLabel('Set an initiate login URI').fill('http://reading-quest.example/launch');
  await page.getByRole('button', { name: 'Save initiate login URI' }).click();
  await page.waitForLoadState();
  t.match(await focused(page), { tag: 'input', name: /^Set an initiate login URI/ }, 'refused: the field has focus again');
  t.match(await page.locator('#f-initiate_login_uri-error').innerText(), /An initiate login URI must use https:\/\//);
  await shot('11-initiate-login-uri-refused', 'a refused initiate login URI');
  await page.getByLabel('Set an initiate login URI').fill('https://reading-quest.example/launch');
  await page.getByRole('button', { name: 'Save initiate login URI' }).click();
  await page.waitForURL(/\/initiate-login-uri$/);
  t.match(await page.getByRole('status').first().innerText(), /Initiate login URI saved/);
  t.equal(await page.getByLabel('Change the initiate login URI').inputValue(), 'https://reading-quest.example/launch', 'shown back');
  await shot('11-initiate-login-uri', 'the initiate login URI');

  await page.goto(`${lanyard.url}/developer/apps/${clientId}/team`);
  await page.getByLabel('Invite a developer by email').fill(teammate.email);
  await page.getByRole('button', { name: 'Invite to the team' }).click();
  await page.waitForURL(/\/team$/);
  t.match(await page.getByRole('status').first().innerText(), new RegExp(`Invitation recorded for ${teammate.email}`));
  const members = await page.getByRole('list', { name: 'Team members' }).innerText();
  t.match(members, `${teammate.email}\nInvited, not yet accepted`, 'the invitation by the address typed');
  t.notMatch(members, /Bob/, 'not the account’s name: that would say the address has an account');
  t.ok(await page.getByRole('button', { name: `Withdraw the invitation to ${teammate.email}` }).isVisible(), 'the owner may withdraw it');
  await shot('12-team', 'the team, with an invitation');

  await page.goto(`${lanyard.url}/developer/apps/${clientId}/go-live`);
  await shot('13-go-live', 'going live');
  await page.getByRole('button', { name: 'Ask to go live' }).click();
  await page.waitForURL(/\/go-live$/);
  await shot('14-pending', 'waiting for review');

  await page.goto(`${lanyard.url}/developer/apps/${clientId}/history`);
  t.notOk((await page.content()).includes(secret), 'the history never shows the secret');
  await shot('15-history', 'the history');

  // The teammate reaches nothing of the app until they accept the invitation on their apps page.
  const before = await teammate.page.goto(`${lanyard.url}/developer/apps/${clientId}`);
  t.equal(before?.status(), 404, 'invited, not accepted: not found');
  await teammate.page.goto(`${lanyard.url}/developer`);
  const invitations = teammate.page.getByRole('list', { name: 'Invitations to a team' });
  t.match(await invitations.innerText(), /Reading Quest[\s\S]*Invited by Ada/);
  t.equal(await teammate.page.getByRole('list', { name: 'Your apps' }).count(), 0, 'no apps of theirs yet');
  t.ok(await teammate.page.getByRole('heading', { name: 'Apps you work on', level: 2 }).isVisible(), 'under a heading of its own');
  t.match(await teammate.page.locator('.empty-state').innerText(), /through an invitation above/, 'which does not contradict the invitation (accepted on the page, or by the link)');
  await look(t, teammate.page, `${size}-16-invitation`, `an invitation on the apps page (${size})`);
  await teammate.page.getByRole('button', { name: 'Accept the invitation to Reading Quest' }).click();
  await teammate.page.waitForURL(new RegExp(`/developer/apps/${clientId}$`));
  t.match(await teammate.page.getByRole('status').first().innerText(), /You joined the team of “Reading Quest”/);
  await look(t, teammate.page, `${size}-16-member-overview`, `the overview for a team member (${size})`);

  await page.goto(`${lanyard.url}/developer`);
  // A name that fits the card stays on one line: the status goes under it where both do not fit beside each other.
  t.equal(await page.locator('.app-card-name').evaluate((a) => {
    const text = a.ownerDocument.createRange();
    text.selectNodeContents(a);
    return new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size;
  }), 1, 'the app’s name on one line');
  await shot('17-list', 'the list of apps');

  await page.goto(`${lanyard.url}/developer/apps/${clientId}`);
  await page.getByRole('link', { name: 'Delete this app…' }).click();
  await page.waitForURL(/\/delete$/);
  await shot('18-delete-confirm', 'the delete confirmation');
  await page.getByLabel('Type the app’s name to confirm').fill('Reading Quest');
  await page.getByRole('button', { name: 'Delete the app' }).click();
  await page.waitForURL(/\/developer$/);
  t.match(await page.getByRole('status').first().innerText(), /is deleted/);

  const missing = await page.goto(`${lanyard.url}/developer/apps/${clientId}`);
  t.equal(missing?.status(), 404);
  await shot('19-not-found', 'an app that is not there');
  t.same(problems, [], 'no console errors, CSP violations or failed loads');
  t.same(teammate.problems, []);
}

/** Open sign-up at one size: the invitation link shown once, the invitation accepted only through it. */
export async function invitationByLink(t: Test, lanyard: Lanyard, browser: Browser, size: string, options: BrowserContextOptions): Promise<void> {
  const { page, problems } = await signedInPage(t, lanyard, browser, 'Ada', options);
  const teammate = await signedInPage(t, lanyard, browser, 'Bob', options);
  // Bob's address unverified, as open sign-up leaves it (his account came from an invitation link here).
  const bob = (await lanyard.store.findDeveloperByEmail(teammate.email))!;
  await lanyard.store.updateDeveloper({ ...bob, emailVerifiedAt: undefined });
  await page.goto(`${lanyard.url}/developer/apps/new`);
  await page.getByLabel(/^Name/).fill('Reading Quest');
  await page.getByRole('button', { name: 'Register the app' }).click();
  await page.waitForURL(/\/developer\/apps\/app_[0-9a-f]{32}$/);
  const clientId = /app_[0-9a-f]{32}/.exec(page.url())![0];

  await page.goto(`${lanyard.url}/developer/apps/${clientId}/team`);
  t.match(await page.locator('.hint').first().innerText(), /gives you an invitation link to send them/, 'the owner is told how it works');
  await page.getByLabel('Invite a developer by email').fill(teammate.email);
  await page.getByRole('button', { name: 'Invite to the team' }).click();
  await page.waitForURL(/\/team$/);
  t.equal(await page.getByRole('heading', { name: `Invitation link for ${teammate.email}` }).count(), 1, 'the link, under a heading');
  const link = await page.locator('#invitation-link').innerText();
  t.match(link, new RegExp(`^${lanyard.url}/developer/team-invitations/[A-Za-z0-9_-]{43}$`));
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: lanyard.url });
  const copyLink = page.getByRole('button', { name: 'Copy the invitation link' });
  t.ok(await copyLink.isVisible(), 'with a copy button, as the secrets have (copy.js shows it)');
  await copyLink.click();
  await page.locator('[data-copy="invitation-link"]', { hasText: 'Copied' }).waitFor();
  t.equal(await page.evaluate('navigator.clipboard.readText()'), link, 'the link is on the clipboard');
  await look(t, page, `${size}-20-team-link`, `the team with the invitation link shown once (${size})`);
  await page.reload();
  t.equal(await page.locator('#invitation-link').count(), 0, 'shown once');

  await teammate.page.goto(`${lanyard.url}/developer`);
  const card = teammate.page.getByRole('list', { name: 'Invitations to a team' });
  t.match(await card.innerText(), /To accept, open the link the owner sent you/);
  t.equal(await teammate.page.getByRole('button', { name: 'Accept the invitation to Reading Quest' }).count(), 0, 'no Accept without the link');
  await look(t, teammate.page, `${size}-21-invitation-by-link`, `an invitation to accept through its link (${size})`);

  await teammate.page.goto(link);
  t.equal(await heading(teammate.page), 'Join the team of “Reading Quest”?');
  await look(t, teammate.page, `${size}-22-join`, `the page of an invitation link (${size})`);
  await teammate.page.getByRole('button', { name: 'Accept the invitation to Reading Quest' }).click();
  await teammate.page.waitForURL(new RegExp(`/developer/apps/${clientId}$`));
  t.match(await teammate.page.getByRole('status').first().innerText(), /You joined the team of “Reading Quest”/);
  const used = await teammate.page.goto(link);
  t.equal(used?.status(), 404, 'the link works once');
  t.match(await teammate.page.locator('main').innerText(), /does not work for your account/);
  t.same(problems, [], 'no console errors, CSP violations or failed loads');
  t.same(teammate.problems, []);
}
