import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { ManualClock } from '../../src/clock.js';
import { THREE_SIZES } from '../helpers/browser-flow.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { signInToConsole } from '../helpers/console-browser.js';
import { freshTotpCode, wrongTotpCode } from '../helpers/developer.js';
import { narrowFormButtons } from '../helpers/form-buttons.js';
import { startLanyard } from '../helpers/lanyard.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { putConsoleSchool } from '../helpers/school-console.js';

/**
 * Signing in to the school console and the account pages in Chromium (docs/school-console.md → Signing in and
 * your account): a school admin's first sign-in goes straight to setting up two-step sign-in (QR code, key,
 * code), the recovery codes, the account page, making an API token with a code; then a sign-in with the second
 * step (a wrong code, a right one). Each page screenshotted and checked by axe-core at a phone, a tablet and a
 * Chromebook width, done by typing and clicking.
 */

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();

async function look(t: Test, page: Page, name: string, label: string): Promise<void> {
  await screenshotAndCheck(t, page, `school-account/${name}`, label);
  if (name.startsWith('phone')) t.same(await narrowFormButtons(page), [], `${label}: every form's button spans the phone's width`);
}

t.test("a school admin's two-step sign-in and account, at three sizes", async (t) => {
  // A clock of the test's own: each TOTP code is a step later, so none waits for the next 30 seconds.
  const clock = new ManualClock(new Date());
  const nextCode = (secret: string) => { clock.advance(30_000); return freshTotpCode(secret, clock); };
  const lanyard = await startLanyard(t, { clock });
  const browser = await launchBrowser(t);
  for (const [size, options] of THREE_SIZES) {
    await t.test(size, async (t) => {
      const slug = `north${size}`;
      const { admin } = await putConsoleSchool(lanyard.store, slug);
      const { page, problems } = await openPage(t, browser, options);
      const shot = (n: string, label: string) => look(t, page, `${size}-${n}`, `${label} (${size})`);

      await signInToConsole(page, lanyard.url, `School ${slug}`, admin.credentials);
      await page.waitForURL(/\/school\/account\/two-step$/);
      t.equal(await heading(page), 'Set up two\u2011step sign\u2011in');
      await shot('01-required', 'two-step sign-in required');
      await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
      await page.waitForURL(/\/school\/account\/two-step$/);
      const secret = (await page.locator('#totp-secret').innerText()).replace(/\s/g, '');
      await shot('02-set-up', 'the set-up');
      await page.getByLabel(/6-digit code/).fill(wrongTotpCode(secret, clock));
      await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
      await page.waitForLoadState();
      t.match(await page.locator('#f-code-error').innerText(), /does not match/);
      await shot('03-set-up-error', 'the set-up with a wrong code');
      await page.getByLabel(/6-digit code/).fill(await freshTotpCode(secret, clock));
      await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
      await page.waitForURL(/\/school\/account\/recovery-codes$/);
      t.equal((await page.locator('#recovery-codes').innerText()).trim().split('\n').length, 10, 'ten recovery codes');
      await shot('04-recovery-codes', 'the recovery codes');

      await page.getByRole('link', { name: 'Go on to your account' }).click();
      await page.waitForURL(/\/school\/account$/);
      t.equal(await heading(page), 'Your account');
      await shot('05-account', 'the account page');

      await page.getByRole('link', { name: 'Manage your API tokens' }).click();
      await page.waitForURL(/\/school\/account\/tokens$/);
      await page.getByLabel('Label').fill('Nightly roster sync');
      await page.getByLabel(/code from your authenticator app/).fill(await nextCode(secret));
      await page.getByRole('button', { name: 'Make token' }).click();
      await page.waitForURL(/\/school\/account\/tokens$/);
      t.match(await page.locator('#new-token-box').innerText(), /lys_/, 'the new token, shown once');
      await shot('06-token', 'a new API token');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/school\/sign-in\/signed-out$/);
      await signInToConsole(page, lanyard.url, `School ${slug}`, admin.credentials);
      await page.waitForURL(/\/school\/sign-in\/second-step$/);
      t.equal(await heading(page), 'Two\u2011step sign\u2011in');
      await shot('07-second-step', 'the second step');
      await page.getByLabel('Code').fill(wrongTotpCode(secret, clock));
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForLoadState();
      t.match(await page.getByRole('alert').innerText(), /That code did not work/);
      await shot('08-second-step-error', 'the second step with a wrong code');
      await page.getByLabel('Code').fill(await nextCode(secret));
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(new RegExp(`/school/${slug}$`));
      t.same(problems, [], 'no console errors or failed requests');
    });
  }
});
