import { html } from './html.js';

/** How a wait is told on Lanyard's pages: in words a child can read, and counting down where a script runs. */

/** "about a minute", "3 minutes", "20 seconds": a wait a child can read. */
export function waitInWords(seconds: number): string {
  if (seconds <= 50) return `${seconds} seconds`;
  if (seconds <= 90) return 'about a minute';
  return `${Math.ceil(seconds / 60)} minutes`;
}

const waitText = (seconds: number) =>
  seconds === 1 ? '1 second' : seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;

/** The wait, counting down in the page (src/web/public/countdown.js); plain text without JavaScript. */
export const countdown = (seconds: number) =>
  html`<span class="nowrap" data-countdown="${seconds}" aria-live="off">${waitText(seconds)}</span>`;

/** What someone turned away by a saturated machine is told (the sign-in screens, the developer area's sign-in). */
export const busyText = (retryAfterSeconds: number) =>
  html`Lots of people are signing in right now. Please wait ${countdown(retryAfterSeconds)}, then try again.`;
