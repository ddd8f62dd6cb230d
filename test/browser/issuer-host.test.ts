import t from 'tap';
import { CHROMEBOOK } from '../helpers/browser-flow.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { TEACHER } from '../helpers/sign-in.js';

/**
 * Lanyard opened under another name of its host (docs/operations.md → The address to open): the issuer is
 * http://localhost:PORT and a teacher types http://127.0.0.1:PORT/. She is sent to the issuer's address before
 * any cookie is set, so her sign-in ends signed in there, not back on an empty "Find your school" page (the
 * cookies on one name, the callback on the other).
 */
t.test('a sign-in started at 127.0.0.1 ends signed in at the issuer\'s localhost', async (t) => {
  const lanyard = await startLanyard(t);
  t.equal(new URL(lanyard.url).hostname, 'localhost', 'the issuer names localhost');
  const { page, problems } = await openPage(t, await launchBrowser(t), CHROMEBOOK);

  await page.goto(`http://127.0.0.1:${lanyard.config.port}/`);
  t.equal(page.url(), `${lanyard.url}/`, 'sent to the issuer\'s address at once');
  t.same(await page.context().cookies(`http://127.0.0.1:${lanyard.config.port}/`), [], 'no cookie left on the other name');
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Find your school');

  await page.getByLabel('School name').fill('demo');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'Demo School' }).click();
  await page.getByRole('link', { name: /Username and password/ }).click();
  await page.getByLabel('Username').fill(TEACHER.username);
  await page.getByLabel('Password').fill(TEACHER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${lanyard.url}/`);
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Hello, Tess', 'signed in, on the dashboard');
  t.ok(await page.getByRole('button', { name: 'Sign out' }).isVisible(), 'with a way to sign out');
  t.same(problems, [], 'no console errors or failed requests');
});
