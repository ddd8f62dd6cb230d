import type { BrowserContextOptions } from 'playwright-core';
import t from 'tap';
import type { ClientConfig } from '../../src/config/schema.js';
import { launchBrowser, openPage, screenshotSections, tabTo } from '../helpers/browser.js';
import { askSchool, CALLBACK } from '../helpers/console-apps.js';
import { writeConfig } from '../helpers/config-file.js';
import { startLanyard } from '../helpers/lanyard.js';
import { liveApp } from '../helpers/live-app.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { consolePage, consolePost, consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';

/**
 * The console's Apps pages (docs/school-console.md → Apps) in Chromium at a phone's, a tablet's and a
 * Chromebook's size: an app asking with what it receives, one declined, the school's apps with their
 * actions, apps offered, and one app's page; each screenshotted (whole, and a screen from each part) and
 * checked by axe, with no sideways scrolling; then an admin approves with the keyboard only.
 */

const SIZES: [string, BrowserContextOptions][] = [
  ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['tablet', { viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['chromebook', { viewport: { width: 1366, height: 768 } }],
];

const app = (client_id: string, name: string): ClientConfig => ({
  client_id, name, secrets: [`${client_id}-secret-value`], redirect_uris: [CALLBACK], default_scopes: ['openid', 'user:read'],
});

t.test('the Apps pages at three sizes: axe-clean, no sideways scrolling; approving with the keyboard', async (t) => {
  const config = writeConfig((c) => { c.clients.push(app('quiz', 'Quiz Time'), app('atlas', 'Atlas Explorer Maps for Geography Lessons'), app('globe', 'Globe Trotter')); });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const { store, url } = lanyard;
  const north = await putConsoleSchool(store, 'north', 'North Primary School');
  await putConsoleSchool(store, 'northfield', 'Northfield Academy');
  const tables = await liveApp(lanyard, { owner: 'Ada Lovelace', app: 'Tables Trainer', callback: CALLBACK });
  const reader = await liveApp(lanyard, { owner: 'Bo Reed', app: 'Reading Rocket', callback: CALLBACK });
  await askSchool(lanyard, tables, 'North', 'Year 4 practise their times tables with it; Ms Jones asked for it at the staff meeting.');
  await askSchool(lanyard, reader, 'North', '');

  // The school's state before the tour: Quiz Time (for pupils) and Atlas connected, Globe Trotter offered, Reading Rocket declined.
  const admin = await consoleSignInAsStaff(url, north.admin.credentials);
  const apps = (await consolePage(admin, `${url}/school/north/apps`)).html;
  await consolePost(admin, `${url}/school/north/apps/connect`, apps, { client_id: 'quiz' });
  await consolePost(admin, `${url}/school/north/apps/connect`, apps, { client_id: 'atlas' });
  await consolePost(admin, `${url}/school/north/apps/quiz/types`, apps, { user_types: 'student' });
  await consolePost(admin, `${url}/school/north/apps/requests/${reader.clientId}/decline`, apps, { [`reason-${reader.clientId}`]: 'We use another reading app this year.' });
  const session = admin.cookies.get('lanyard_school');
  const developer = reader.owner.browser.cookies.get('lanyard_developer');
  if (!session || !developer) throw new Error('no console or developer session');

  const browser = await launchBrowser(t);
  for (const [size, options] of SIZES) {
    await t.test(size, async (t) => {
      const { page, problems } = await openPage(t, browser, options);
      await page.context().addCookies([{ name: 'lanyard_school', value: session, domain: new URL(url).hostname, path: '/school' }]);

      await page.goto(`${url}/school/north`);
      t.ok(await page.getByRole('link', { name: '1 app is asking to be used by the school' }).isVisible(), 'the front page tells the admin');
      await screenshotAndCheck(t, page, `school-console-apps/${size}-01-home`, `${size}: the console's front page`);

      await page.goto(`${url}/school/north/apps`);
      const asking = page.locator('.request-card');
      t.match(await asking.innerText(), /Tables Trainer[\s\S]*Developed by Ada Lovelace[\s\S]*Ms Jones[\s\S]*openid[\s\S]*first and last name[\s\S]*when matched/);
      t.ok(await page.getByRole('button', { name: 'Approve Tables Trainer' }).isVisible(), 'Approve, named for its app');
      t.ok(await page.getByRole('button', { name: 'Decline Tables Trainer' }).isVisible());
      t.ok(await page.getByRole('table', { name: /Your school’s apps/ }).isVisible());
      t.ok(await page.getByRole('button', { name: 'Move down Quiz Time' }).isVisible(), 'the order changes in place');
      await screenshotAndCheck(t, page, `school-console-apps/${size}-02-apps`, `${size}: the Apps page`);
      await screenshotSections(page, `school-console-apps/${size}-02-apps`);

      await page.goto(`${url}/school/north/apps/quiz`);
      t.equal(await page.getByLabel('Only these user types').inputValue(), 'student');
      await screenshotAndCheck(t, page, `school-console-apps/${size}-03-app`, `${size}: one app's page`);

      // The developer's side: the app's schools (North declined, with its reason) and a search to ask another.
      await page.context().addCookies([{ name: 'lanyard_developer', value: developer, domain: new URL(url).hostname, path: '/developer' }]);
      await page.goto(`${url}/developer/apps/${reader.clientId}/schools?q=north`);
      t.match(await page.getByRole('table', { name: 'The app’s schools' }).innerText(), /North Primary School[\s\S]*Declined[\s\S]*We use another reading app this year/);
      t.ok(await page.getByRole('radio', { name: 'Northfield Academy' }).isVisible(), 'a school found, to choose');
      await screenshotAndCheck(t, page, `school-console-apps/${size}-05-developer-schools`, `${size}: the developer's Schools page`);
      t.same(problems, [], 'no console errors');
    });
  }

  await t.test('approving with the keyboard alone', async (t) => {
    const { page, problems } = await openPage(t, browser, SIZES[2]![1]);
    await page.context().addCookies([{ name: 'lanyard_school', value: session, domain: new URL(url).hostname, path: '/school' }]);
    await page.goto(`${url}/school/north/apps`);
    const reached = await tabTo(page, /^Approve Tables Trainer$/, 40);
    t.ok(reached.focusVisible, 'reached with Tab, its focus shown');
    await Promise.all([page.waitForURL(/\/school\/north\/apps#connected$/), page.keyboard.press('Enter')]);
    t.match(await page.getByRole('status').innerText(), /Tables Trainer is on your school’s dashboards now/);
    t.match(await page.getByRole('table', { name: /Your school’s apps/ }).innerText(), /Tables Trainer/);
    await screenshotAndCheck(t, page, 'school-console-apps/chromebook-04-approved', 'chromebook: after approving');
    t.same(problems, [], 'no console errors');
  });
});
