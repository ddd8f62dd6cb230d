import t from 'tap';
import { CHROMEBOOK } from '../helpers/browser-flow.js';
import { launchBrowser } from '../helpers/browser.js';
import { appFromRegistrationToDeletion } from '../helpers/developer-app-pages.js';
import { startLanyard } from '../helpers/lanyard.js';

/** An app from registration to deletion at a chromebook's size: every page screenshotted and checked by axe (developer-app-pages.ts). */
t.test('an app from registration to deletion, at a chromebook width', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = await launchBrowser(t);
  await appFromRegistrationToDeletion(t, lanyard, browser, 'chromebook', CHROMEBOOK);
});
