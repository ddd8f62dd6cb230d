import type { Store } from '../../adapters/store.js';
import { demoAuthorizeUrl } from './children.js';
import { HttpBrowser, hiddenField, location } from './http-browser.js';
import { consolePage, consolePost } from './school-console.js';

/**
 * Help codes in tests (docs/childrens-sign-in.md → Help codes): a member of staff gives one in the console as a
 * browser without JavaScript does, and a pupil signs in with it through the real sign-in screens.
 */

/** The school uses the Demo App (a school made in a test has no apps: the file's are offered, not imposed). */
export const useDemoApp = (store: Store, organisationId: string) =>
  store.putConnection({ organisationId, clientId: 'demo-app', position: 0, source: 'operator', createdAt: new Date().toISOString() });

/** The code on the console's code card, as its digits. */
export const cardCode = (page: string): string | undefined =>
  /<p class="help-code-digits"><span aria-hidden="true">(\d{3}) (\d{3})<\/span>/.exec(page)?.slice(1, 3).join('');

/**
 * Gives `userId` of the school `slug` a help code from a console signed in in `browser`: the form's POST (303),
 * then the code's page. Returns the code, the page and both answers.
 */
export async function giveHelpCode(browser: HttpBrowser, issuer: string, slug: string, userId: string) {
  const form = (await consolePage(browser, `${issuer}/school/${slug}/help-codes`)).html;
  const posted = await consolePost(browser, `${issuer}/school/${slug}/people/${userId}/help-code`, form);
  if (posted.status !== 303) return { posted, code: undefined, page: await posted.text() };
  const shown = await browser.get(location(posted, issuer), { accept: 'text/html' });
  const page = await shown.text();
  return { posted, shown, page, code: cardCode(page) };
}

/** The help-code screen of a new sign-in at `org`, reached as a pupil does: the school's chooser, "I have a help code". */
export async function openHelpCode(browser: HttpBrowser, issuer: string, org: string, authorizeUrl: string | URL = demoAuthorizeUrl(issuer)) {
  const to = location(await browser.get(authorizeUrl), issuer);
  const uid = to.pathname.split('/')[2]!;
  const chooser = await (await browser.get(`${issuer}/interaction/${uid}?org=${encodeURIComponent(org)}`)).text();
  const link = /href="(\/interaction\/[^"]+\/help-code\?org=[^"]+)"/.exec(chooser)?.[1];
  if (!link) throw new Error('the chooser offers no help code');
  const res = await browser.get(new URL(link.replace(/&amp;/g, '&'), issuer));
  const page = await res.text();
  return { uid, page, status: res.status, csrf: hiddenField(page, 'csrf'), org, chooser };
}

export const postHelpCode = (browser: HttpBrowser, issuer: string, step: { uid: string; csrf: string; org: string }, username: string, code: string) =>
  browser.post(`${issuer}/interaction/${step.uid}/help-code`, { csrf: step.csrf, org: step.org, username, code });

/** One sign-in with a help code on a fresh browser (a new source each time): the answer to the form. */
export async function tryHelpCode(issuer: string, org: string, username: string, code: string, browser = new HttpBrowser()): Promise<Response> {
  return postHelpCode(browser, issuer, await openHelpCode(browser, issuer, org), username, code);
}
