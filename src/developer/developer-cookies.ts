import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS } from '../accounts/device-cookies.js';
import { setCookie } from '../http/cookie-header.js';
import { readCookie } from '../http/signed-value.js';
import { csrfToken, csrfValid } from '../web/csrf.js';
import type { DeveloperDeps } from './deps.js';
import { GENERATED_SECRET, generateClientSecret } from '../clients/client-secret.js';

/**
 * The developer area's cookies: all HttpOnly, SameSite=Lax (a link from an email or chat must open a signed-in
 * page), Path=/developer (nothing of it reaches the sign-in screens or the protocol endpoints), Secure when the
 * issuer is https. They are written with appendHeader on the raw response, like the sign-in screens' device
 * cookies, so several can be set on one reply without one replacing another.
 */
export const DEVELOPER_PATH = '/developer';

type CookieDeps = Pick<DeveloperDeps, 'secureCookies'>;

/** Sets (or, with maxAge 0 and an empty value, clears) a developer-area cookie. `maxAge` undefined: a browser-session cookie. */
export function setDeveloperCookie(deps: CookieDeps, reply: FastifyReply, name: string, value: string, maxAge: number | undefined): void {
  setCookie(reply, { name, value, path: DEVELOPER_PATH, maxAge, secure: deps.secureCookies });
}

export const clearDeveloperCookie = (deps: CookieDeps, reply: FastifyReply, name: string) => setDeveloperCookie(deps, reply, name, '', 0);

export const cookieOf = (req: FastifyRequest, name: string): string | undefined => readCookie(req.headers.cookie, name) || undefined;

/** A 256-bit random value for a cookie (session ids, form bindings): nothing to guess. */
export const randomCookieValue = generateClientSecret;

/**
 * Forms shown before sign-in (sign-in, second step, sign-up, invitation) are bound to this short-lived random
 * cookie: the token is an HMAC of it under the cookie keys, so a cross-site post (which lacks both the cookie
 * under SameSite=Lax and the token) is refused — no login CSRF into an attacker's account.
 */
export const PRE_COOKIE = 'lanyard_developer_pre';
const PRE_SECONDS = 60 * 60;
const PRE_VALUE = GENERATED_SECRET;

/** The token for this browser's pre-sign-in forms; gives the browser the cookie when it has none. */
export function preSignInCsrf(deps: Pick<DeveloperDeps, 'cookieKeys' | 'secureCookies'>, req: FastifyRequest, reply: FastifyReply): string {
  let value = cookieOf(req, PRE_COOKIE);
  if (!value || !PRE_VALUE.test(value)) value = randomCookieValue();
  // Set again on every form: the hour starts over while someone is still at it.
  setDeveloperCookie(deps, reply, PRE_COOKIE, value, PRE_SECONDS);
  return csrfToken(deps.cookieKeys, `developer-pre:${value}`);
}

/** Does the form carry the token of this browser's pre-sign-in cookie? */
export function preSignInCsrfValid(deps: Pick<DeveloperDeps, 'cookieKeys'>, req: FastifyRequest, body: unknown): boolean {
  const value = cookieOf(req, PRE_COOKIE);
  if (!value || !PRE_VALUE.test(value)) return false;
  return csrfValid(deps.cookieKeys, `developer-pre:${value}`, (body as Record<string, unknown> | undefined)?.csrf);
}

/**
 * The sign-in screens' device cookie (src/accounts/device-cookies.ts) lives on /interaction, so the developer area gives
 * the browser its own, signed the same way (purpose `device`) and read by the same DeviceCookies: a known
 * device is its own source for the guessing protection, so guessing from elsewhere cannot slow a developer on
 * their own laptop.
 */
export function ensureDeveloperDevice(deps: Pick<DeveloperDeps, 'cookieKeys' | 'secureCookies' | 'devices'>, req: FastifyRequest, reply: FastifyReply): void {
  const value = deps.devices.valueToSet(req);
  if (value) setDeveloperCookie(deps, reply, DEVICE_COOKIE, value, DEVICE_COOKIE_MAX_AGE_SECONDS);
}
