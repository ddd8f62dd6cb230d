import type { FastifyReply, FastifyRequest } from 'fastify';
import { secureCookieFor, setCookie } from '../http/cookie-header.js';
import { readCookie } from '../http/signed-value.js';
import { ROUTES } from '../routes.js';
import { csrfToken, csrfValid } from '../web/csrf.js';
import { RANDOM_COOKIE_VALUE, randomCookieValue } from '../web/area/area-cookies.js';

/**
 * CSRF for the class-code form (POST /class), shown before anyone signs in: the token is an HMAC of a random
 * cookie of the form's own (an hour, on /class, SameSite=Lax), as the signed-in areas' pre-sign-in forms are,
 * so a page on another site cannot post a code into this browser.
 */
const COOKIE = 'lanyard_class_form';
const SECONDS = 60 * 60;
const purpose = (value: string) => `class-link-form:${value}`;

/** The token for this browser's form; gives the browser the cookie when it has none, and starts its hour over. */
export function classFormCsrf(keys: readonly string[], req: FastifyRequest, reply: FastifyReply): string {
  let value = readCookie(req.headers.cookie, COOKIE);
  if (!value || !RANDOM_COOKIE_VALUE.test(value)) value = randomCookieValue();
  setCookie(reply, { name: COOKIE, value, path: ROUTES.classLink, maxAge: SECONDS, secure: secureCookieFor(req) });
  return csrfToken(keys, purpose(value));
}

export function classFormCsrfValid(keys: readonly string[], req: FastifyRequest, presented: unknown): boolean {
  const value = readCookie(req.headers.cookie, COOKIE);
  return !!value && RANDOM_COOKIE_VALUE.test(value) && csrfValid(keys, purpose(value), presented);
}
