import { sessionFormToken, sessionFormTokenValid } from '../provider/session-form.js';
import type { SignedIn } from '../provider/session.js';

/**
 * CSRF for the dashboard's forms (launch, sign out): bound to the browser's Lanyard session
 * (src/provider/session-form.ts), so a page on another site can neither launch an app in the user's name
 * (docs/dashboard-and-app-launch.md) nor sign them out.
 */
const PURPOSE = 'dashboard-form';

export const dashboardCsrf = (keys: readonly string[], s: SignedIn): string => sessionFormToken(keys, PURPOSE, s);

export const dashboardCsrfValid = (keys: readonly string[], s: SignedIn, presented: unknown): boolean =>
  sessionFormTokenValid(keys, PURPOSE, s, presented);
