import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * CSRF token for the login forms: an HMAC of the interaction uid under a server secret. A forged
 * cross-site post has neither the token nor (SameSite=Lax) the interaction cookie.
 */
export const csrfToken = (key: string, uid: string) => createHmac('sha256', key).update(`csrf:${uid}`).digest('base64url');

export function csrfValid(key: string, uid: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(csrfToken(key, uid));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
