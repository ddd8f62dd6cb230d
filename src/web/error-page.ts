import { html } from './html.js';
import { layout } from './layout.js';

/** A friendly error page: never a stack trace; the OAuth error code is shown for support. */
export function errorPage(title: string, message: string, code?: string): string {
  return layout(title, html`
<h1>${title}</h1>
<p>${message}</p>
${code ? html`<p class="muted">Error code: <code>${code}</code></p>` : ''}
`);
}

export const expiredPage = () => errorPage(
  'Sign-in expired',
  'This sign-in took too long or was already finished. Go back to the app and start again.',
  'sign_in_expired',
);

/** Any store failure, wherever a person sees it (README → When the store fails). */
export const unavailablePage = () => errorPage(
  'Try again in a moment',
  'Lanyard is busy for a moment. Please wait a few seconds and try again.',
  'temporarily_unavailable',
);
