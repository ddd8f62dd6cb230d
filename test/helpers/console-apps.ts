import * as client from 'openid-client';
import type { AuditEvent } from '../../adapters/store.js';
import { actorOf } from '../../src/developer/actor.js';
import { formCsrf } from './developer.js';
import { HttpBrowser, location } from './http-browser.js';
import type { Lanyard } from './lanyard.js';
import type { LiveApp } from './live-app.js';
import { authorizationRequest, relyingParty } from './relying-party.js';
import { type Credentials, signIn } from './sign-in.js';

/**
 * The school console's Apps pages in tests (docs/school-console.md → Apps): a developer asking a school from
 * the developer area's pages, what a school's users see on their dashboard, and signing one in to an app with
 * a real relying party.
 */

/** The callback every test app registers (the relying party helper's redirect_uri). */
export const CALLBACK = 'http://localhost:8080/callback';

/** A live app's owner asks the school (found by `search`) from the app's Schools page; the answer of the form. */
export async function askSchool(lanyard: Lanyard, app: LiveApp, search: string, note: string): Promise<Response> {
  const base = `${lanyard.url}/developer/apps/${app.clientId}/schools`;
  const { csrf, page } = await formCsrf(app.owner.browser, `${base}?q=${encodeURIComponent(search)}`);
  const organisation = /name="organisation" value="([^"]+)"/.exec(page)?.[1];
  if (!organisation) throw new Error(`no school to choose for "${search}"`);
  return app.owner.browser.post(base, { csrf, organisation, note, q: search });
}

/** The developer's Schools page of the app. */
export async function schoolsPage(lanyard: Lanyard, app: LiveApp): Promise<string> {
  return (await app.owner.browser.get(`${lanyard.url}/developer/apps/${app.clientId}/schools`)).text();
}

/** The client_ids of the tiles on the user's dashboard, signed in at `/` with their school's password screens. */
export async function dashboardTiles(lanyard: Lanyard, who: Credentials): Promise<string[]> {
  const browser = new HttpBrowser();
  const start = await browser.get(`${lanyard.url}/sign-in?org=${who.organisation}`);
  await browser.get(await signIn(browser, lanyard.url, location(start, lanyard.url), who));
  const page = await (await browser.get(`${lanyard.url}/`)).text();
  return [...page.matchAll(/action="\/launch\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
}

/** A secret for the live app, made by its owner. */
export async function appSecret(app: LiveApp): Promise<string> {
  return (await app.apps.createSecret(actorOf(app.account), app.clientId, { label: 'test' })).secret;
}

/**
 * Signs the user in to the app with openid-client (PKCE, state, nonce, the ID token checked); the ID token's
 * claims. Rejects with "login failed with 403" when the app may not sign them in.
 */
export async function signInToApp(lanyard: Lanyard, clientId: string, secret: string, who: Credentials): Promise<client.IDToken> {
  const rp = await relyingParty(lanyard.url, clientId, secret);
  const req = await authorizationRequest(rp);
  const callback = await signIn(new HttpBrowser(), lanyard.url, req.url, who);
  const tokens = await client.authorizationCodeGrant(rp, callback, { expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier });
  return tokens.claims()!;
}

/**
 * Whether the app is refused at the user's school before any credential (`not_connected`): its sign-in
 * screens answer 403 "This app is not available at your school", and the app gets no code.
 */
export async function notAvailable(lanyard: Lanyard, clientId: string, who: Credentials): Promise<boolean> {
  const browser = new HttpBrowser();
  const url = `${lanyard.url}/oauth/authorize?${new URLSearchParams({
    client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', nonce: 'n', organisation: who.organisation ?? '',
  }).toString()}`;
  const res = await browser.get(location(await browser.get(url), lanyard.url));
  return res.status === 403 && (await res.text()).includes('This app is not available at your school');
}

/** The school's audit events about apps, oldest first, once `count` are written (the recorder writes off the request's path). */
export async function appAudit(lanyard: Lanyard, organisationId: string, count: number): Promise<AuditEvent[]> {
  for (let i = 0; ; i += 1) {
    const events = (await lanyard.store.queryAudit({ organisationId, limit: 200 })).filter((e) => e.action.startsWith('app.'));
    if (events.length >= count || i === 40) return events.reverse();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
