import type { FastifyReply, FastifyRequest } from 'fastify';
import { generateClientSecret, GENERATED_SECRET } from '../../clients/client-secret.js';
import { setCookie } from '../../http/cookie-header.js';
import { readCookie } from '../../http/signed-value.js';

/**
 * A signed-in area's cookies (the developer area's at /developer; the school console's next): all HttpOnly,
 * SameSite=Lax (a link from an email or chat must open a signed-in page), on the area's Path only (nothing of
 * it reaches the sign-in screens or the protocol endpoints), Secure when the issuer is https. Written with
 * appendHeader on the raw response (src/http/cookie-header.ts), so several can be set on one reply.
 */
export class AreaCookies {
  constructor(private readonly o: { path: string; secure: boolean }) {}

  /** Sets a cookie; `maxAge` undefined: a browser-session cookie. */
  set(reply: FastifyReply, name: string, value: string, maxAge: number | undefined): void {
    setCookie(reply, { name, value, path: this.o.path, maxAge, secure: this.o.secure });
  }

  clear(reply: FastifyReply, name: string): void {
    this.set(reply, name, '', 0);
  }
}

/** The value of a cookie the request carries, or undefined. */
export const cookieOf = (req: FastifyRequest, name: string): string | undefined => readCookie(req.headers.cookie, name) || undefined;

/** A 256-bit random value for a cookie (session ids, form bindings): nothing to guess. */
export const randomCookieValue = generateClientSecret;

/** The shape of randomCookieValue's values: anything else in such a cookie is not ours. */
export const RANDOM_COOKIE_VALUE = GENERATED_SECRET;
