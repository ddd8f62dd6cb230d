import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { checkAccessibility } from '../helpers/axe.js';
import { ManualClock } from '../../src/clock.js';
import { THREE_SIZES } from '../helpers/browser-flow.js';
import { focused, launchBrowser, openPage, screenshot, wordsBroken } from '../helpers/browser.js';
import { DEVELOPER_PASSWORD, freshTotpCode, inviteDeveloper, wrongTotpCode } from '../helpers/developer.js';
import { narrowFormButtons } from '../helpers/form-buttons.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { screenshotAndCheck } from '../helpers/page-check.js';

/**
 * The developer account pages in Chromium (docs/developer-area.md): invitation, sign-in with and without the second
 * step, the account page, TOTP set-up, recovery codes, API tokens, sign-out, the closed sign-up and the 404 —
 * each screenshotted and checked by axe-core, at a phone, a tablet and a Chromebook width, done by typing and clicking.
 */

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();

async function look(t: Test, page: Page, name: string, label: string): Promise<void> {
  await screenshotAndCheck(t, page, `developer-accounts/${name}`, label);
  if (name.startsWith('phone')) t.same(await narrowFormButtons(page), [], `${label}: every form's button spans the phone's width`);
}

async function signIn(page: Page, lanyard: Lanyard, email: string, password: string): Promise<void> {
  await page.goto(`${lanyard.url}/developer/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState();
}

t.test('a developer from invitation to two-step sign-in and API tokens', async (t) => {
  // A clock of the test's own: each TOTP code is a step later, so none waits for the next 30 seconds.
  const clock = new ManualClock(new Date());
  const nextCode = (secret: string) => { clock.advance(30_000); return freshTotpCode(secret, clock); };
  const lanyard = await startLanyard(t, { clock });
  const browser = await launchBrowser(t);
  for (const [size, options] of THREE_SIZES) {
    await t.test(size, async (t) => {
      const { page, problems } = await openPage(t, browser, options);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: lanyard.url });
      const shot = (n: string, label: string) => look(t, page, `${size}-${n}`, `${label} (${size})`);
      const email = `ada-${size}@example.org`;

      await page.goto(await inviteDeveloper(lanyard, email));
      t.equal(await heading(page), 'Accept your invitation');
      await shot('01-invitation', 'the invitation');
      await page.getByLabel('Your name').fill('Ada Lovelace');
      await page.getByLabel('Password', { exact: true }).fill('too short');
      await page.getByLabel('Password again').fill('too short');
      await page.getByRole('button', { name: 'Create my account' }).click();
      await page.waitForLoadState();
      t.match(await page.locator('#f-password-error').innerText(), /at least 15 characters/);
      await shot('02-invitation-errors', 'the invitation with errors');
      await page.getByLabel('Password', { exact: true }).fill(DEVELOPER_PASSWORD);
      await page.getByLabel('Password again').fill(DEVELOPER_PASSWORD);
      await page.getByRole('button', { name: 'Create my account' }).click();
      await page.waitForURL(/\/developer\/account$/);
      t.equal(await heading(page), 'Your account');
      t.match(await page.getByRole('status').first().innerText(), /Welcome, Ada Lovelace/);
      t.equal(await page.getByRole('navigation', { name: 'Developer area' }).getByRole('link', { name: 'Account' }).getAttribute('aria-current'), 'page');
      t.same(await wordsBroken(page, '.breakable > span', { afterHyphen: false }), [], 'the email address breaks only after its @ or a dot, never at its hyphen');
      await shot('03-account', 'the account page');

      await page.getByLabel('Your password').fill(DEVELOPER_PASSWORD);
      await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
      await page.waitForURL(/\/developer\/account\/totp$/);
      t.ok(await page.getByRole('img', { name: /QR code/ }).isVisible(), 'the QR code is shown');
      const secret = (await page.locator('#totp-secret').innerText()).replace(/\s/g, '');
      t.same(await wordsBroken(page, 'h1', { afterHyphen: false }), [], 'the heading breaks at its spaces, never inside "two-step" or "sign-in"');
      await shot('04-totp-setup', 'the TOTP set-up');
      await page.getByLabel(/6-digit code/).fill(wrongTotpCode(secret, clock));
      await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
      await page.waitForLoadState();
      t.match(await page.locator('#f-code-error').innerText(), /does not match/);
      t.match(await focused(page), { tag: 'input' }, 'the code field has focus again');
      await shot('05-totp-setup-error', 'the TOTP set-up with a wrong code');
      await page.getByLabel(/6-digit code/).fill(await nextCode(secret));
      await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
      await page.waitForURL(/\/developer\/account\/recovery-codes$/);
      const codes = (await page.locator('#recovery-codes').innerText()).trim().split('\n');
      t.equal(codes.length, 10);
      await page.getByRole('button', { name: 'Copy the codes' }).click();
      t.equal((await page.evaluate('navigator.clipboard.readText()') as string).trim(), codes.join('\n'), 'copied');
      t.ok(await page.getByRole('button', { name: 'Print the codes' }).isVisible(), 'the codes can be printed, as the page says');
      await shot('06-recovery-codes', 'the recovery codes');

      await page.getByRole('link', { name: 'Back to your account' }).click();
      await page.getByRole('link', { name: 'Manage your API tokens' }).click();
      await page.waitForURL(/\/developer\/account\/tokens$/);
      await shot('07-tokens-empty', 'the API tokens page without tokens');
      await page.getByLabel('Label').fill('deploy script');
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.waitForLoadState();
      t.match(await page.locator('#f-code-error').innerText(), /Enter the 6-digit code/, 'making a token asks for a code again');
      await page.getByLabel('Code from your authenticator app').fill(await nextCode(secret));
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.waitForURL(/\/developer\/account\/tokens$/);
      t.match(await page.locator('#new-token').innerText(), /^lyd_/);
      t.ok(await page.getByRole('heading', { name: 'Your new API token', level: 2 }).isVisible(), 'shown once in the box an app\'s new secret is shown in, under a heading');
      t.ok(await page.getByRole('button', { name: 'Copy the new token' }).isVisible(), 'with its Copy button');
      await shot('08-token-created', 'a new API token');
      const revoke = (await page.getByRole('link', { name: 'Revoke the token deploy script' }).boundingBox())!;
      const card = (await page.locator('main.card').boundingBox())!;
      t.ok(revoke.x >= card.x && revoke.x + revoke.width <= card.x + card.width,
        `the token's Revoke button is inside the card (${Math.round(revoke.x + revoke.width)} ≤ ${Math.round(card.x + card.width)}px), not cut off at a table's edge`);
      t.equal(await page.getByRole('list', { name: 'Your API tokens' }).getByRole('listitem').count(), 1, 'the token listed as a card, as an app’s secrets are');
      // As an app's secret: a page says what revoking does, and the red button there does it.
      await page.getByRole('link', { name: 'Revoke the token deploy script' }).click();
      await page.waitForURL(/\/developer\/account\/tokens\/[^/]+\/revoke$/);
      t.equal(await heading(page), 'Revoke the token “deploy script”?');
      t.match(await page.locator('.warning').innerText(), /401 from the moment you revoke it/);
      await shot('08b-token-revoke-confirm', 'revoking an API token: the confirmation');
      await page.getByRole('link', { name: 'Keep it' }).click();
      await page.waitForURL(/\/developer\/account\/tokens$/);
      t.equal(await page.getByRole('list', { name: 'Your API tokens' }).getByRole('listitem').count(), 1, 'Keep it: the token is still there');
      await page.getByRole('link', { name: 'Revoke the token deploy script' }).click();
      await page.getByRole('button', { name: 'Revoke the token' }).click();
      await page.waitForURL(/\/developer\/account\/tokens$/);
      t.match(await page.getByRole('status').first().innerText(), /revoked/);
      t.match(await page.locator('.empty-state').innerText(), /No API tokens yet/, 'and it is gone from the list');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/developer\/sign-in$/);
      t.match(await page.getByRole('status').innerText(), 'You are signed out');
      await shot('09-signed-out', 'the sign-in page after signing out');

      await signIn(page, lanyard, email, 'a wrong password here');
      t.match(await page.getByRole('alert').innerText(), /email or password is wrong/);
      await shot('10-sign-in-error', 'the sign-in page with an error');
      await signIn(page, lanyard, email, DEVELOPER_PASSWORD);
      await page.waitForURL(/\/developer\/sign-in\/verify$/);
      t.equal(await heading(page), 'Two\u2011step sign\u2011in', 'with non-breaking hyphens');
      await shot('11-verify', 'the second step');
      await page.getByLabel('Code').fill(await nextCode(secret));
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(/\/developer$/);

      await page.goto(`${lanyard.url}/developer/sign-up`);
      t.equal(await heading(page), 'Sign-up is by invitation');
      await shot('12-sign-up-closed', 'sign-up closed');
      const missing = await page.goto(`${lanyard.url}/developer/nothing-here`);
      t.equal(missing?.status(), 404);
      t.equal(await heading(page), 'Page not found');
      t.ok(await page.getByRole('navigation', { name: 'Developer area' }).isVisible(), 'signed in: inside the area, with its menu');
      t.ok(await page.getByRole('link', { name: 'Your apps' }).isVisible(), 'and a way on, as for an app that is not there');
      t.equal(await page.getByRole('navigation', { name: 'Developer area' }).locator('[aria-current]').count(), 0,
        'no menu entry marked current: the address is none of them');
      await shot('13-not-found', 'the 404 page');
      const guest = (await openPage(t, browser, options)).page;
      t.equal((await guest.goto(`${lanyard.url}/developer/nothing-here`))?.status(), 404);
      t.ok(await guest.getByRole('link', { name: 'Sign in to the developer area' }).isVisible(), 'signed out: the way in, not a dead end');
      await screenshot(guest, `developer-accounts/${size}-14-not-found-signed-out`);
      await checkAccessibility(t, guest, `the 404 page signed out (${size})`);
      t.same(problems, [], 'no console errors, CSP violations or failed assets');
    });
  }
});
