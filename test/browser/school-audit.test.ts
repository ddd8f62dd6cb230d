import t from 'tap';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { DAYS, seedTrail } from '../helpers/school-audit.js';
import { consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';

/**
 * The audit trail and use per day in Chromium (docs/school-console.md → Audit and usage), at a phone's
 * (390×844), a tablet's (820×1180) and a Chromebook's (1366×768) size: each page screenshotted
 * (test-artifacts/screenshots/school-audit/), axe-clean, nothing wider than the screen; the filters are a
 * plain form that works from the keyboard.
 */

const SIZES = [['phone', { width: 390, height: 844 }], ['tablet', { width: 820, height: 1180 }], ['chromebook', { width: 1366, height: 768 }]] as const;

t.test('the audit and usage pages at three sizes', async (t) => {
  const lanyard = await startLanyard(t);
  const { store, url } = lanyard;
  const north = await putConsoleSchool(store, 'north');
  const south = await putConsoleSchool(store, 'south');
  await seedTrail(store, north, south);
  const signedIn = await consoleSignInAsStaff(url, north.admin.credentials);
  const host = new URL(url).hostname;
  const browser = await launchBrowser(t);

  for (const [name, viewport] of SIZES) {
    await t.test(name, async (t) => {
      const { page, problems } = await openPage(t, browser, { viewport });
      await page.context().addCookies([...signedIn.cookies].map(([cookie, value]) => ({ name: cookie, value, domain: host, path: '/' })));
      const visit = async (path: string, shot: string, label: string, heading: string) => {
        await page.goto(`${url}${path}`);
        t.equal(await page.getByRole('heading', { level: 1 }).innerText(), heading, `${label}: its heading`);
        await screenshotAndCheck(t, page, `school-audit/${name}-${shot}`, `${label} (${name})`);
      };
      await visit(`/school/north/audit?to=${DAYS.third}`, 'audit', 'the audit trail', 'Audit trail');
      t.equal(await page.locator('tbody tr').count(), 50, 'a page of 50 events');
      await visit(`/school/north/audit?kind=sign_in_failed&to=${DAYS.third}`, 'audit-failures', 'failed sign-ins', 'Audit trail');
      t.match(await page.locator('tbody').innerText(), /× 5/, 'the merged row’s count');
      await visit('/school/north/audit?person=ada&from=2025-02-30', 'audit-refused', 'a refused filter', 'Audit trail');
      await visit(`/school/north/usage?from=${DAYS.first}&to=${DAYS.third}`, 'usage', 'use per day', 'Use per day');
      await visit('/school/north', 'home', 'the admin’s front page', 'Classes');
      t.match(await page.locator('main').innerText(), /Today so far/);
      t.same(problems, [], 'no console errors or failed resources');
    });
  }

  await t.test('the filters from the keyboard, without a script', async (t) => {
    const { page } = await openPage(t, browser, { viewport: { width: 1366, height: 768 }, javaScriptEnabled: false });
    await page.context().addCookies([...signedIn.cookies].map(([cookie, value]) => ({ name: cookie, value, domain: host, path: '/' })));
    await page.goto(`${url}/school/north/audit`);
    await page.getByLabel('Person').fill('zoë');
    await page.getByLabel('What').selectOption('sign_in');
    await page.getByLabel('Person').press('Enter');
    await page.waitForURL(/person=zo%C3%AB/);
    t.match(page.url(), /kind=sign_in/, 'the form is a GET: a filtered view is a link');
    t.match(await page.locator('tbody').innerText(), /Zoë Ng/);
    t.equal(await page.locator('tbody tr').count(), 1);
  });
});
