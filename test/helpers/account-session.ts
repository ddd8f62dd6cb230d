import * as client from 'openid-client';
import type { Test } from 'tap';
import { BADGE_KID, EMOJI_KID, followToCallback, openMethod, postBadge, postEmoji } from './children.js';
import { HttpBrowser, location } from './http-browser.js';
import { authorizationRequest, relyingParty } from './relying-party.js';
import { type Credentials, signIn } from './sign-in.js';

/**
 * One person signed in through the hosted login, as a real app sees them: a browser with its Lanyard
 * session, and the tokens openid-client got for it. Used to show what a credential change, a suspension,
 * a sign-out or a deletion ends (docs/configuration.md → Adding clients and users), and what it leaves alone.
 */
export interface SignedIn {
  rp: client.Configuration;
  browser: HttpBrowser;
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  claims: client.IDToken;
}

export type Way = { password: Credentials } | { emoji: string[]; username?: string } | { badge: string };

export const EMOJI_WAY: Way = { emoji: EMOJI_KID.emoji, username: EMOJI_KID.username };
export const BADGE_WAY: Way = { badge: BADGE_KID.code };

/** Signs in with a password, an emoji password or a badge, in `browser` (a new one by default). */
export async function signInAs(issuer: string, way: Way, browser = new HttpBrowser()): Promise<SignedIn> {
  const rp = await relyingParty(issuer);
  const req = await authorizationRequest(rp);
  let callback: URL;
  if ('password' in way) {
    callback = await signIn(browser, issuer, req.url, way.password);
  } else {
    const method = 'emoji' in way ? 'emoji' : 'badge';
    const to = location(await browser.get(req.url), issuer);
    const uid = to.pathname.split('/')[2]!;
    const step = await openMethodFor(browser, issuer, uid, method);
    const res = 'emoji' in way
      ? await postEmoji(browser, issuer, step, way.username ?? EMOJI_KID.username, way.emoji)
      : await postBadge(browser, issuer, step, way.badge);
    if (res.status !== 303) throw new Error(`${method} sign-in failed with ${res.status}`);
    callback = await followToCallback(browser, issuer, res);
  }
  const tokens = await client.authorizationCodeGrant(rp, callback, {
    expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier,
  });
  return { rp, browser, tokens, claims: tokens.claims()! };
}

/** The method's screen of the interaction the browser was just sent to (as openMethod, for a given uid). */
async function openMethodFor(browser: HttpBrowser, issuer: string, uid: string, method: 'emoji' | 'badge') {
  const res = await browser.get(`${issuer}/interaction/${uid}/${method}?org=demo-school`);
  const page = await res.text();
  const csrf = /name="csrf" value="([^"]*)"/.exec(page)?.[1];
  if (!csrf) throw new Error(`no ${method} form (${res.status})`);
  return { uid, csrf, org: 'demo-school' };
}

/** A sign-in attempt that should be refused: the status and the message the person reads. */
export async function refusedSignIn(issuer: string, way: Way): Promise<{ status: number; message: string | undefined }> {
  const browser = new HttpBrowser();
  const method = 'password' in way ? 'password' : 'emoji' in way ? 'emoji' : 'badge';
  const step = await openMethod(browser, issuer, method);
  const res = 'password' in way
    ? await browser.post(`${issuer}/interaction/${step.uid}/password`, {
      csrf: step.csrf, org: step.org, username: way.password.username, password: way.password.password,
    })
    : 'emoji' in way
      ? await postEmoji(browser, issuer, step, way.username ?? EMOJI_KID.username, way.emoji)
      : await postBadge(browser, issuer, step, way.badge);
  const page = await res.text();
  return { status: res.status, message: /<p class="error" role="alert"[^>]*>([^<]*)<\/p>/.exec(page)?.[1] };
}

/** What an authorization request with prompt=none from the same browser comes back with: a code, or an error. */
export async function silentAuthorize(who: SignedIn, issuer: string): Promise<{ code?: string; error?: string }> {
  const req = await authorizationRequest(who.rp, { prompt: 'none' });
  let to = location(await who.browser.get(req.url), issuer);
  for (let hops = 0; to.origin === issuer && hops < 5; hops += 1) to = location(await who.browser.get(to), issuer);
  const code = to.searchParams.get('code') ?? undefined;
  const error = to.searchParams.get('error') ?? undefined;
  return { ...(code ? { code } : {}), ...(error ? { error } : {}) };
}

/**
 * The refresh grant's answer: ok, or the OAuth error. A refresh retires the refresh token it used (rotation),
 * so on success `who` keeps the new tokens: a later check must not fail for presenting a used one.
 */
export async function refresh(who: SignedIn): Promise<string> {
  try {
    who.tokens = await client.refreshTokenGrant(who.rp, who.tokens.refresh_token!);
    return 'ok';
  } catch (err) {
    return (err as { error?: string }).error ?? String(err);
  }
}

/** The userinfo endpoint's answer to the access token: 200, or the status and the Bearer error. */
export async function userinfo(who: SignedIn): Promise<string> {
  try {
    await client.fetchUserInfo(who.rp, who.tokens.access_token, who.claims.sub);
    return '200';
  } catch (err) {
    const e = err as { status?: number; cause?: { parameters?: { error?: string } }[] };
    return `${e.status} ${e.cause?.[0]?.parameters?.error ?? ''}`.trim();
  }
}

/** Everything the sign-in gave still works (or none of it does). */
export async function assertSession(t: Test, who: SignedIn, issuer: string, alive: boolean, what: string): Promise<void> {
  const silent = await silentAuthorize(who, issuer);
  const [ui, rt] = [await userinfo(who), await refresh(who)];
  if (alive) {
    t.ok(silent.code, `${what}: the browser session still signs in silently (prompt=none → code)`);
    t.equal(ui, '200', `${what}: the access token still works at userinfo`);
    t.equal(rt, 'ok', `${what}: the refresh token still works`);
  } else {
    t.same(silent, { error: 'login_required' }, `${what}: the browser session is over (prompt=none → login_required)`);
    t.equal(ui, '401 invalid_token', `${what}: the access token is refused at userinfo (401 invalid_token)`);
    t.equal(rt, 'invalid_grant', `${what}: the refresh token is refused (invalid_grant)`);
  }
}
