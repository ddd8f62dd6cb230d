import type { BrowserContextOptions, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { setUpTwoStepInBrowser, signInToConsole } from '../helpers/console-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { tempDir } from '../helpers/roster-files.js';
import { type ConsoleSchool, putConsoleSchool } from '../helpers/school-console.js';
import { schoolExportZip } from '../helpers/school-roster.js';

/**
 * A school admin in Chromium (docs/school-console.md → The roster, People and staff): signs in to the console
 * through the ordinary screens (setting up two-step sign-in), uploads the school's OneRoster zip, reviews the plan (a mass removal among it),
 * is refused without the box, applies it with the box, finds it in the history; then finds a pupil on the People
 * page, makes them a new emoji password (shown once) and looks at the staff. At a phone's (390×844), a tablet's
 * (820×1180) and a Chromebook's (1366×768) size: every page screenshotted, axe-clean, no sideways scrolling.
 */

const SIZES: [string, BrowserContextOptions][] = [
  ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['tablet', { viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['chromebook', { viewport: { width: 1366, height: 768 } }],
];

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();

/** The console's sign-in through the ordinary screens; a school admin sets up two-step sign-in before any other page. */
async function signIn(page: Page, url: string, school: ConsoleSchool): Promise<void> {
  await signInToConsole(page, url, school.organisation.name, school.admin.credentials);
  await page.waitForURL(/\/school\/account\/two-step$/);
  await setUpTwoStepInBrowser(page);
  await page.goto(`${url}/school/${school.organisation.slug}`);
}

for (const [size, options] of SIZES) {
  t.test(`roster upload, plan and apply, and people, on a ${size}`, async (t: Test) => {
    const lanyard = await startLanyard(t);
    const school = await putConsoleSchool(lanyard.store, `riverside-${size}`, `Riverside ${size}`);
    const chloe = school.taught.pupils[2]!;
    const zip = await schoolExportZip(tempDir(t), 'riverside-export', school, {
      drop: [school.other.pupils[3]!.username], rename: { [chloe.username]: 'Dubois-Martin' },
      add: [{ username: `${size}-new1`, given: 'Nia', family: 'Newcomer', klass: 'a' }],
    });
    const browser = await launchBrowser(t);
    const { page, problems } = await openPage(t, browser, options);
    let n = 0;
    const look = (label: string) => screenshotAndCheck(t, page, `school-admin/${size}-${String(++n).padStart(2, '0')}-${label.replace(/\W+/g, '-')}`, `${label} (${size})`);

    await signIn(page, lanyard.url, school);
    await page.getByRole('link', { name: 'Roster' }).click();
    t.equal(await heading(page), 'Roster');
    await look('roster');

    await page.getByLabel('The export').setInputFiles(zip);
    await page.getByRole('button', { name: 'Upload and see the plan' }).click();
    await page.waitForURL(/\/roster\/plans\//);
    t.equal(await heading(page), 'The roster plan');
    t.ok(await page.getByText('A large part of the school would leave').isVisible(), 'the guard');
    await look('plan');
    for (const part of ['Added', 'Changed', 'Leaving']) await page.locator('summary', { hasText: part }).click();
    t.ok(await page.getByText('Dubois-Martin').first().isVisible(), 'a change, field by field');
    await look('plan-opened');

    await page.getByRole('button', { name: 'Apply this plan' }).click();
    t.match(await page.getByRole('alert').first().innerText(), /Tick the box/, 'refused without the box');
    await look('plan-refused');
    await page.getByLabel('They really are leaving: apply the removal').check();
    await page.getByRole('button', { name: 'Apply this plan' }).click();
    await page.waitForURL(/\/roster$/);
    t.match(await page.getByRole('status').first().innerText(), /The roster was applied/);
    t.ok(await page.getByRole('cell', { name: `${school.admin.credentials.username} in the console` }).isVisible(), 'the history');
    await look('applied');

    await page.getByRole('link', { name: 'People' }).click();
    await page.getByLabel('Name or username').fill('chloe');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=chloe/);
    await look('people-search');
    await page.getByRole('link', { name: 'Chloé Dubois-Martin' }).click();
    t.equal(await heading(page), 'Chloé Dubois-Martin');
    await look('person');
    await page.getByRole('button', { name: 'Make a new emoji password' }).click();
    t.equal(await page.locator('.emoji-reveal li').count(), 6, 'six pictures, shown once');
    await look('person-new-emoji');

    await page.getByRole('link', { name: 'People', exact: true }).first().click();
    await page.getByRole('link', { name: 'Staff and their roles' }).click();
    t.equal(await heading(page), 'Staff and roles');
    await look('staff');
    t.same(problems, [], 'no console errors, failed loads or CSP violations');
  });
}
