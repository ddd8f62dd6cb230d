import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { freshTotpCode } from './developer.js';
import type { Credentials } from './sign-in.js';

/**
 * The school console in Chromium, as a person uses it (docs/school-console.md → Signing in and your account):
 * the sign-in through the ordinary screens, setting up two-step sign-in, the second step, and a download.
 */

/**
 * From /school/sign-in through the sign-in screens: the school (searched by `school`, its name, when the
 * screens ask), username and password. Ends on the first console page the sign-in leads to.
 */
export async function signInToConsole(page: Page, url: string, school: string, who: Credentials): Promise<void> {
  await page.goto(`${url}/school/sign-in`);
  await page.waitForURL(/\/interaction\//);
  if (await page.getByLabel('School name').count()) {
    await page.getByLabel('School name').fill(school);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: school }).click();
  }
  await page.getByRole('link', { name: /Username and password/ }).click();
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/school\//);
}

/**
 * On /school/account/two-step, where a school admin's first sign-in leads: sets it up with the key shown as
 * text and a fresh code, and ends on the recovery codes. `shot`, if given, is called on the set-up page (its
 * QR code and key). Returns the TOTP secret.
 */
export async function setUpTwoStepInBrowser(page: Page, shot?: () => Promise<unknown>): Promise<string> {
  await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  await page.waitForURL(/\/school\/account\/two-step$/);
  const secret = (await page.locator('#totp-secret').innerText()).replace(/\s/g, '');
  await shot?.();
  await page.getByLabel(/6-digit code/).fill(await freshTotpCode(secret));
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await page.waitForURL(/\/school\/account\/recovery-codes$/);
  return secret;
}

/** Clicks `button` and saves what the browser downloads as `dir/<its suggested name>`; returns the path. */
export async function downloadBy(page: Page, button: ReturnType<Page['getByRole']>, dir: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = join(dir, download.suggestedFilename());
  await download.saveAs(path);
  return path;
}
