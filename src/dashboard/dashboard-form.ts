import { signValue, verifySignedValue } from '../http/signed-value.js';
import type { SignedIn } from '../provider/session.js';

/**
 * CSRF for the dashboard's forms (launch, sign out): a token bound to the browser's Lanyard session, so a
 * page on another site can neither launch an app in the user's name (issue 10 §3) nor sign them out, and a
 * token from one session is worthless in the next.
 */
const PURPOSE = 'dashboard-form';

export const dashboardCsrf = (keys: readonly string[], s: SignedIn): string => signValue(keys, PURPOSE, s.sessionUid);

export const dashboardCsrfValid = (keys: readonly string[], s: SignedIn, presented: unknown): boolean =>
  typeof presented === 'string' && verifySignedValue(keys, PURPOSE, presented) === s.sessionUid;
