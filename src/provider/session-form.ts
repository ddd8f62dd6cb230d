import type { SignedIn } from './session.js';
import { signValue, verifySignedValue } from '../http/signed-value.js';

/**
 * CSRF for the forms of Lanyard's own pages for a signed-in user (the dashboard's launch and sign-out, the
 * classroom-device page): a token bound to the browser's Lanyard session and to the form's purpose, so that
 * a page on another site cannot post them in the user's name, and a token seen in one session is worthless
 * in the next (on a shared classroom device, the next person's).
 */
export const sessionFormToken = (keys: readonly string[], purpose: string, s: SignedIn): string =>
  signValue(keys, purpose, s.sessionUid);

export const sessionFormTokenValid = (keys: readonly string[], purpose: string, s: SignedIn, presented: unknown): boolean =>
  typeof presented === 'string' && verifySignedValue(keys, purpose, presented) === s.sessionUid;
