import type { Test } from 'tap';
import { HttpBrowser, hiddenField, location } from './http-browser.js';

export interface Credentials {
  username: string;
  password: string;
  /** Picked on the organisation screen when the request did not name one. */
  organisation?: string;
}

export const TEACHER: Credentials = { username: 'teacher', password: 'teacher-pass', organisation: 'demo-school' };
export const PUPIL: Credentials = { username: 'pupil', password: 'pupil-pass', organisation: 'demo-school' };

/**
 * Walks the hosted login like a person: authorize → (organisation) → password form → back through the
 * provider to the app's redirect_uri. Returns the final redirect (the app's callback URL with its parameters).
 * Reuses the browser's session when there is one (no login screen then).
 */
export async function signIn(
  browser: HttpBrowser,
  issuer: string,
  authorizeUrl: string | URL,
  who: Credentials,
): Promise<URL> {
  let res = await browser.get(authorizeUrl);
  let to = location(res, issuer);
  // Lanyard's own callbacks (the dashboard's and the school console's built-in client) are where their sign-ins end, like an app's.
  const home = (u: URL) => u.pathname === '/sign-in/done' || u.pathname === '/school/sign-in/done';
  for (let hops = 0; to.origin === issuer && !home(to) && hops < 10; hops += 1) {
    if (to.pathname.startsWith('/interaction/')) {
      const uid = to.pathname.split('/')[2]!;
      res = await browser.get(to);
      let page = await res.text();
      if (page.includes('Find your school')) {
        const picked = new URL(to);
        picked.searchParams.set('org', who.organisation ?? 'demo-school');
        res = await browser.get(picked);
        page = await res.text();
      }
      if (res.status === 303) page = await (await browser.get(location(res, issuer))).text(); // the only method
      if (!page.includes('name="password"')) {
        // The organisation offers several ways to sign in: choose username and password.
        const link = /href="(\/interaction\/[^"]+\/password\?org=[^"]+)"/.exec(page)?.[1];
        if (!link) throw new Error('no password sign-in on this page');
        page = await (await browser.get(new URL(link.replace(/&amp;/g, '&'), issuer))).text();
      }
      res = await browser.post(new URL(`/interaction/${uid}/password`, issuer), {
        csrf: hiddenField(page, 'csrf'),
        org: hiddenField(page, 'org'),
        username: who.username,
        password: who.password,
      });
      if (res.status !== 303) throw new Error(`login failed with ${res.status}`);
    } else {
      res = await browser.get(to);
      if (res.status === 200) res = await submitAutoForm(browser, await res.text());
    }
    to = location(res, issuer);
  }
  return to;
}

/**
 * oidc-provider's self-submitting form (another user signing in over a session: the old session is ended
 * first, at /oauth/session/end/confirm). A browser without JavaScript presses its Continue button.
 */
export async function submitAutoForm(browser: HttpBrowser, page: string): Promise<Response> {
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  if (!action) throw new Error('expected a redirect or a self-submitting form');
  const fields = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  return browser.post(action.replace(/&amp;/g, '&'), fields);
}

/**
 * A wrong password, then the right one, in one interaction (a person's typo): each answer is checked
 * (401, then 303), and the code the app receives is returned.
 */
export async function signInAfterAWrongPassword(
  t: Pick<Test, 'equal'>,
  browser: HttpBrowser,
  issuer: string,
  authorizeUrl: string,
  who: Credentials,
  wrongPassword: string,
): Promise<string> {
  const first = location(await browser.get(authorizeUrl), issuer);
  const uid = first.pathname.split('/')[2]!;
  const page = await (await browser.get(`${issuer}/interaction/${uid}/password?org=${who.organisation ?? 'demo-school'}`)).text();
  const form = { csrf: hiddenField(page, 'csrf'), org: hiddenField(page, 'org'), username: who.username };
  t.equal((await browser.post(`${issuer}/interaction/${uid}/password`, { ...form, password: wrongPassword })).status, 401, 'a failed sign-in');
  const res = await browser.post(`${issuer}/interaction/${uid}/password`, { ...form, password: who.password });
  t.equal(res.status, 303, 'signed in');
  let to = location(res, issuer);
  while (to.origin === issuer) to = location(await browser.get(to), issuer);
  return to.searchParams.get('code') ?? '';
}
