import { forAdults } from './components.js';
import { html, type Raw } from './html.js';
import { ENGLISH, type Translator } from './i18n/translator.js';
import { layout } from './layout.js';

/** A way on from an error page. */
export interface WayOn {
  href: string;
  /** Text, or markup that says where a long word may break (hostName). */
  label: string | Raw;
}

/** Where a pupil or teacher stuck on a sign-in's error can always go: their school's apps (the front door), in the page's language. */
export const schoolApps = (t: Translator): WayOn => ({ href: '/', label: t.t('errors.schoolApps') });

/** The same, in English: for the pages no pupil sees. */
export const SCHOOL_APPS: WayOn = schoolApps(ENGLISH);

/** What only the people behind an app need to read on an error page, folded away with the error code. */
export interface ForAdults {
  summary: string;
  text: string;
}

/**
 * A friendly error page: never a stack trace; a way on, where there is one; the OAuth error code for support,
 * folded away with `adults`' explanation when the page has one for the people behind the app. The way on's
 * label is one span: a button-link is a flex box, and its words and a host name as separate flex items
 * stood side by side ("Continue" over "to", the host beside them). `t`: the page's language (the pages pupils
 * see pass the request's: src/web/i18n/choose-locale.ts); English otherwise.
 */
export function errorPage(title: string, message: string, code?: string, wayOn?: WayOn, adults?: ForAdults, t: Translator = ENGLISH): string {
  return layout(title, html`
<h1>${title}</h1>
<p>${message}</p>
${wayOn ? html`<p class="way-on"><a class="button-link" href="${wayOn.href}"><span>${wayOn.label}</span></a></p>` : ''}
${adults && code ? forAdults(adults.summary, html`<p>${adults.text}</p>`, code, t) : code ? html`<p class="muted">${t.t('error.code')} <code>${code}</code></p>` : ''}
`, { t });
}

export const expiredPage = (t: Translator = ENGLISH) =>
  errorPage(t.t('errors.expired.title'), t.t('errors.expired.text'), 'sign_in_expired', schoolApps(t), undefined, t);

/** Any store failure, wherever a person sees it (docs/storage.md → When the store fails). */
export const unavailablePage = (t: Translator = ENGLISH) =>
  errorPage(t.t('errors.unavailable.title'), t.t('errors.unavailable.text'), 'temporarily_unavailable', undefined, undefined, t);

/** An address that is nothing, as a browser sees it (an API client gets JSON: src/app.ts). */
export const notFoundPage = (t: Translator = ENGLISH) =>
  errorPage(t.t('errors.notFound.title'), t.t('errors.notFound.text'), undefined, schoolApps(t), undefined, t);

/** "about a minute", "3 minutes", "20 seconds": a wait a child can read, in the page's language. */
export function waitFor(t: Translator, seconds: number): string {
  if (seconds <= 50) return t.t('errors.wait.seconds', { count: seconds });
  if (seconds <= 90) return t.t('errors.wait.aboutMinute');
  return t.t('errors.wait.minutes', { count: Math.ceil(seconds / 60) });
}

/** Too many requests from one network (the rate limiter's 429, src/http/rate-limit-reply.ts). */
export const tooManyRequestsPage = (retryAfterSeconds: number, t: Translator = ENGLISH) => errorPage(
  t.t('errors.tooMany.title'),
  t.t('errors.tooMany.text', { wait: waitFor(t, retryAfterSeconds) }),
  'too_many_requests', undefined, undefined, t,
);
