import { HttpBrowser, hiddenField, location } from './http-browser.js';

export const EMOJI_KID = { username: 'emoji-kid', emoji: ['dog', 'apple', 'rocket', 'star', 'cat', 'pizza'] };
export const BADGE_KID = { code: 'BADG-EDEM-0000-0000-0000-0000-01' };

export const demoAuthorizeUrl = (issuer: string, extra = '') =>
  `${issuer}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent('http://localhost:8080/callback')}`
  + `&response_type=code&scope=openid&nonce=n-children${extra}`;

/** A login method's screen for a fresh authorization request: the page, its uid and hidden fields. */
export async function openMethod(browser: HttpBrowser, issuer: string, method: 'emoji' | 'badge' | 'password', org = 'demo-school', headers: Record<string, string> = {}) {
  const to = location(await browser.get(demoAuthorizeUrl(issuer), headers), issuer);
  const uid = to.pathname.split('/')[2]!;
  const res = await browser.get(`${issuer}/interaction/${uid}/${method}?org=${org}`, headers);
  const page = await res.text();
  return { uid, page, status: res.status, csrf: res.status === 200 ? hiddenField(page, 'csrf') : '', org };
}

/** Follows the redirects after a successful login back to the app's callback. */
export async function followToCallback(browser: HttpBrowser, issuer: string, res: Response): Promise<URL> {
  let to = location(res, issuer);
  for (let i = 0; to.origin === issuer && i < 5; i += 1) to = location(await browser.get(to), issuer);
  return to;
}

export const postEmoji = (browser: HttpBrowser, issuer: string, step: { uid: string; csrf: string; org: string }, username: string, emoji: string[], extra: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  browser.post(`${issuer}/interaction/${step.uid}/emoji`, { csrf: step.csrf, org: step.org, username, emoji: emoji.join(','), go: '1', ...extra }, headers);

export const postBadge = (browser: HttpBrowser, issuer: string, step: { uid: string; csrf: string; org: string }, code: string) =>
  browser.post(`${issuer}/interaction/${step.uid}/badge`, { csrf: step.csrf, org: step.org, code });

/** The text of a page's error message (what the user reads), for comparing two answers. */
export const alertText = (page: string) => /<p class="error" role="alert"[^>]*>([^<]*)<\/p>/.exec(page)?.[1];

export function idTokenClaims(body: Record<string, string>): Record<string, unknown> {
  return JSON.parse(Buffer.from(body.id_token!.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export async function exchange(issuer: string, callback: URL): Promise<Record<string, string>> {
  const res = await fetch(`${issuer}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: 'http://localhost:8080/callback' }),
  });
  return await res.json() as Record<string, string>;
}

export { HttpBrowser };
