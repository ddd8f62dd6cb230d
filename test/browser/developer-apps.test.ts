import t from 'tap';
import { CHROMEBOOK, THREE_SIZES } from '../helpers/browser-flow.js';
import { launchBrowser, screenshot, tabTo } from '../helpers/browser.js';
import { writeConfig } from '../helpers/config-file.js';
import { CALLBACK, invitationByLink, signedInPage } from '../helpers/developer-app-pages.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * The app pages by keyboard alone, and open sign-up's invitation links at three sizes. An app from registration
 * to deletion is in developer-apps-{phone,tablet,chromebook}.test.ts, a size a file.
 */

t.test('keyboard only: the section tabs and a form, with visible focus', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = await launchBrowser(t);
  const { page, problems } = await signedInPage(t, lanyard, browser, 'Kay', CHROMEBOOK);
  await page.goto(`${lanyard.url}/developer/apps/new`);
  await page.keyboard.type('Keyboard App');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/developer\/apps\/app_[0-9a-f]{32}$/);
  const tab = await tabTo(page, /^Credentials$/, 25);
  t.match(tab, { tag: 'a', focusVisible: true }, 'Tab reaches the Credentials tab');
  t.notMatch(tab.outline, /^none/, `with a visible focus ring (${tab.outline})`);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/credentials$/);
  const input = await tabTo(page, /^Add a callback URL/, 25);
  t.match(input, { tag: 'input' });
  await page.keyboard.type(CALLBACK);
  await page.keyboard.press('Enter');
  await page.waitForURL(/#callbacks$/);
  t.match(await page.getByRole('list', { name: 'Callback URLs' }).innerText(), /localhost:8080\/callback/);
  await screenshot(page, 'developer-apps/keyboard-credentials');
  t.same(problems, []);
});

t.test('open sign-up: the invitation link shown once, the invitation to accept through it, and the page of the link, at three sizes', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: writeConfig((c) => { c.developer_signup = 'open'; }) } });
  const browser = await launchBrowser(t);
  for (const [size, options] of THREE_SIZES) await t.test(size, (t) => invitationByLink(t, lanyard, browser, size, options));
});
