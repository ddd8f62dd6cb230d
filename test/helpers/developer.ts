import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { type Clock, systemClock } from '../../src/clock.js';
import { OPERATOR } from '../../src/developer/actor.js';
import { Invitations } from '../../src/developer/invitations.js';
import { HttpBrowser, location } from './http-browser.js';
import type { Lanyard } from './lanyard.js';

/**
 * Developer accounts for tests, made the way people make them: an invitation (as `lanyard developers invite`
 * makes it), accepted over real HTTP, then sign-in through the real form (with the second step when the
 * account has one). Exports are stable: the apps, API and browser tests build on them.
 */
export const DEVELOPER_PASSWORD = 'a long developer passphrase';

export interface DeveloperOptions {
  email?: string;
  name?: string;
  password?: string;
  /** The Lanyard's clock when it is not the system's (invitations are dated with it). */
  clock?: Clock;
}

export interface TestDeveloper {
  id: string;
  email: string;
  name: string;
  password: string;
  /** Signed in (accepting the invitation signs the developer in). */
  browser: HttpBrowser;
}

let counter = 0;
const uniqueEmail = () => `dev${++counter}-${randomBytes(3).toString('hex')}@example.org`;

/** The CSRF token of the (first) form on a page. */
export function csrfOf(page: string): string {
  const m = /name="csrf" value="([^"]*)"/.exec(page);
  if (!m) throw new Error('no CSRF token on this page');
  return m[1]!;
}

/** Fetches a page with the browser and returns its form's CSRF token (and the page). */
export async function formCsrf(browser: HttpBrowser, url: string | URL): Promise<{ csrf: string; page: string }> {
  const res = await browser.get(url);
  const page = await res.text();
  if (res.status !== 200) throw new Error(`GET ${String(url)}: ${res.status}`);
  return { csrf: csrfOf(page), page };
}

/** An invitation link for `email`, made as the operator's CLI makes it. */
export async function inviteDeveloper(lanyard: Lanyard, email: string, clock: Clock = systemClock): Promise<string> {
  return (await new Invitations({ store: lanyard.store, clock, issuer: lanyard.url }).invite(email, OPERATOR)).link;
}

/** Accepts an invitation link in `browser` with a name and password; returns the response (303 when it worked). */
export async function acceptInvitation(browser: HttpBrowser, link: string, name: string, password: string): Promise<Response> {
  const { csrf } = await formCsrf(browser, link);
  return browser.post(link, { csrf, displayName: name, password, confirm: password });
}

/** A new developer account (through an invitation accepted over HTTP), signed in. */
export async function createDeveloper(lanyard: Lanyard, o: DeveloperOptions = {}): Promise<TestDeveloper> {
  const email = (o.email ?? uniqueEmail()).toLowerCase();
  const name = o.name ?? `Developer ${counter}`;
  const password = o.password ?? DEVELOPER_PASSWORD;
  const browser = new HttpBrowser();
  const res = await acceptInvitation(browser, await inviteDeveloper(lanyard, email, o.clock), name, password);
  if (res.status !== 303) throw new Error(`accepting the invitation failed with ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const account = await lanyard.store.findDeveloperByEmail(email);
  if (!account) throw new Error('no account after accepting the invitation');
  return { id: account.id, email, name, password, browser };
}

/** The code of one TOTP step (RFC 6238: SHA-1, 6 digits, 30 s), as Lanyard's second step checks it. */
const codeAt = (secret: string, step: number): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: step * 30_000 });
const stepAt = (clock: Clock): number => TOTP.counter({ period: 30, timestamp: clock.now().getTime() });

/** The last TOTP step a test used, per secret: the next code is never one Lanyard has seen (replay is refused). */
const lastStep = new Map<string, number>();

/**
 * A TOTP code Lanyard will accept now: the current step's, or the next one's (accepted one step ahead) when the
 * current one was used; waits for the clock when both were.
 */
export async function freshTotpCode(secret: string, clock: Clock = systemClock): Promise<string> {
  for (;;) {
    const current = stepAt(clock);
    const step = Math.max(current, (lastStep.get(secret) ?? -Infinity) + 1);
    if (step <= current + 1) {
      lastStep.set(secret, step);
      return codeAt(secret, step);
    }
    if (clock !== systemClock) throw new Error('no fresh TOTP code: advance the test clock');
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * A 6-digit code that is none of the codes the server accepts now (the steps either side of this one): a
 * wrong code, found without using up a fresh one (freshTotpCode would make the next right code wait).
 */
export function wrongTotpCode(secret: string, clock: Clock = systemClock): string {
  const current = stepAt(clock);
  const valid = [-1, 0, 1].map((d) => codeAt(secret, current + d));
  return ['000000', '111111', '222222', '333333'].find((code) => !valid.includes(code))!;
}

export interface SignInOptions {
  email: string;
  password: string;
  /** The account's TOTP secret (base32), when it has the second step on. */
  totpSecret?: string;
  clock?: Clock;
  browser?: HttpBrowser;
}

/** Signs in at /developer/sign-in (and the second step, given the secret); throws unless it worked. */
export async function signInDeveloper(lanyard: Lanyard, o: SignInOptions): Promise<HttpBrowser> {
  const browser = o.browser ?? new HttpBrowser();
  const { csrf } = await formCsrf(browser, `${lanyard.url}/developer/sign-in`);
  let res = await browser.post(`${lanyard.url}/developer/sign-in`, { csrf, email: o.email, password: o.password });
  if (res.status !== 303) throw new Error(`developer sign-in failed with ${res.status}`);
  if (location(res, lanyard.url).pathname === '/developer/sign-in/verify') {
    if (!o.totpSecret) throw new Error('the account asks for a TOTP code: pass totpSecret');
    const verify = await formCsrf(browser, `${lanyard.url}/developer/sign-in/verify`);
    res = await browser.post(`${lanyard.url}/developer/sign-in/verify`, { csrf: verify.csrf, code: await freshTotpCode(o.totpSecret, o.clock) });
    if (res.status !== 303) throw new Error(`developer second step failed with ${res.status}`);
  }
  return browser;
}

export interface TotpOn {
  secret: string;
  recoveryCodes: string[];
}

/** Turns on the second step for the signed-in browser's account, as a developer does on the account page. */
export async function enableDeveloperTotp(lanyard: Lanyard, browser: HttpBrowser, clock: Clock = systemClock, password = DEVELOPER_PASSWORD): Promise<TotpOn> {
  const account = await formCsrf(browser, `${lanyard.url}/developer/account`);
  let res = await browser.post(`${lanyard.url}/developer/account/totp/setup`, { csrf: account.csrf, setupPassword: password });
  if (res.status !== 303) throw new Error(`TOTP set-up failed with ${res.status}`);
  const setup = await formCsrf(browser, `${lanyard.url}/developer/account/totp`);
  const secret = /id="totp-secret">([A-Z2-7 ]+)</.exec(setup.page)?.[1]?.replace(/ /g, '');
  if (!secret) throw new Error('no TOTP secret on the set-up page');
  res = await browser.post(`${lanyard.url}/developer/account/totp`, { csrf: setup.csrf, code: await freshTotpCode(secret, clock) });
  if (res.status !== 303) throw new Error(`TOTP confirmation failed with ${res.status}`);
  const codesPage = await (await browser.get(location(res, lanyard.url))).text();
  const recoveryCodes = /id="recovery-codes">([^<]*)</.exec(codesPage)?.[1]?.trim().split('\n') ?? [];
  if (recoveryCodes.length !== 10) throw new Error('no recovery codes shown');
  return { secret, recoveryCodes };
}
