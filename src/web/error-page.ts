import { forAdults } from './components.js';
import { html, type Raw } from './html.js';
import { layout } from './layout.js';
import { waitInWords } from './waits.js';

/** A way on from an error page. */
export interface WayOn {
  href: string;
  /** Text, or markup that says where a long word may break (hostName). */
  label: string | Raw;
}

/** Where a pupil or teacher stuck on a sign-in's error can always go: their school's apps (the front door). */
export const SCHOOL_APPS: WayOn = { href: '/', label: 'Go to your school apps' };

/** What only the people behind an app need to read on an error page, folded away with the error code. */
export interface ForAdults {
  summary: string;
  text: string;
}

/**
 * A friendly error page: never a stack trace; a way on, where there is one; the OAuth error code for support,
 * folded away with `adults`' explanation when the page has one for the people behind the app. The way on's
 * label is one span: a button-link is a flex box, and its words and a host name as separate flex items
 * stood side by side ("Continue" over "to", the host beside them).
 */
export function errorPage(title: string, message: string, code?: string, wayOn?: WayOn, adults?: ForAdults): string {
  return layout(title, html`
<h1>${title}</h1>
<p>${message}</p>
${wayOn ? html`<p class="way-on"><a class="button-link" href="${wayOn.href}"><span>${wayOn.label}</span></a></p>` : ''}
${adults && code ? forAdults(adults.summary, html`<p>${adults.text}</p>`, code) : code ? html`<p class="muted">Error code: <code>${code}</code></p>` : ''}
`);
}

export const expiredPage = () => errorPage(
  'Sign-in expired',
  'This sign-in took too long or was already finished. Start again from the app, or from your school apps.',
  'sign_in_expired',
  SCHOOL_APPS,
);

/** Any store failure, wherever a person sees it (docs/storage.md → When the store fails). */
export const unavailablePage = () => errorPage(
  'Try again in a moment',
  'Lanyard is busy for a moment. Please wait a few seconds and try again.',
  'temporarily_unavailable',
);

/** An address that is nothing, as a browser sees it (an API client gets JSON: src/app.ts). */
export const notFoundPage = () => errorPage('Page not found',
  'There is nothing at this address. Check it for a typing mistake, or start again from your school apps.', undefined, SCHOOL_APPS);

/** Too many requests from one network (the rate limiter's 429, src/http/rate-limit-reply.ts). */
export const tooManyRequestsPage = (retryAfterSeconds: number) => errorPage(
  'Too many sign-ins at once',
  `Lots of sign-ins are coming from your network right now. Please wait ${waitInWords(retryAfterSeconds)}, then try again.`,
  'too_many_requests',
);
