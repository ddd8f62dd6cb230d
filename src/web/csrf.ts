import { createHmac } from 'node:crypto';
import { matchesAnyKey } from '../http/signed-value.js';

/**
 * CSRF token for the login forms: an HMAC of the interaction uid under the cookie keys. A forged
 * cross-site post has neither the token nor (SameSite=Lax) the interaction cookie. The first key signs;
 * every configured key verifies, so putting a new key in front of LANYARD_COOKIE_KEYS never breaks a form
 * that is already open (docs/security.md → Cookie keys).
 */
export const csrfToken = (keys: readonly string[], uid: string) => mac(keys[0]!, uid);

export const csrfValid = (keys: readonly string[], uid: string, presented: unknown): boolean =>
  matchesAnyKey(keys, presented, (key) => mac(key, uid));

const mac = (key: string, uid: string) => createHmac('sha256', key).update(`csrf:${uid}`).digest('base64url');
