import { forAdults } from './components.js';
import { html, type Raw } from './html.js';
import { ENGLISH, type Translator } from './i18n/translator.js';
import { layout } from './layout.js';
import { waitInWords } from './waits.js';

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
 * see pass the request's: src/web/i18n/choose-locale.ts); English otherwise. `switchUrl`: the request's
 * address (req.url), where a pupil may see the page: with it, the language switch is at its foot.
 */
export function errorPage(
  title: string, message: string, code?: string, wayOn?: WayOn, adults?: ForAdults, t: Translator = ENGLISH, switchUrl?: string,
): string {
  return layout(title, html`
<h1>${title}</h1>
<p>${message}</p>
${wayOn ? html`<p class="way-on"><a class="button-link" href="${wayOn.href}"><span>${wayOn.label}</span></a></p>` : ''}
${adults && code ? forAdults(adults.summary, html`<p>${adults.text}</p>`, code, t) : code ? html`<p class="muted">${t.t('error.code')} <code>${code}</code></p>` : ''}
`, { t, switchUrl });
}

/** A sign-in that is over; `switchUrl` as errorPage's (the pages below too). */
export const expiredPage = (t: Translator = ENGLISH, switchUrl?: string) =>
  errorPage(t.t('errors.expired.title'), t.t('errors.expired.text'), 'sign_in_expired', schoolApps(t), undefined, t, switchUrl);

/** Any store failure, wherever a person sees it (docs/storage.md → When the store fails). */
export const unavailablePage = (t: Translator = ENGLISH, switchUrl?: string) =>
  errorPage(t.t('errors.unavailable.title'), t.t('errors.unavailable.text'), 'temporarily_unavailable', undefined, undefined, t, switchUrl);

/** An address that is nothing, as a browser sees it (an API client gets JSON: src/app.ts). */
export const notFoundPage = (t: Translator = ENGLISH, switchUrl?: string) =>
  errorPage(t.t('errors.notFound.title'), t.t('errors.notFound.text'), undefined, schoolApps(t), undefined, t, switchUrl);

/** Too many requests from one network (the rate limiter's 429, src/http/rate-limit-reply.ts). */
export const tooManyRequestsPage = (retryAfterSeconds: number, t: Translator = ENGLISH, switchUrl?: string) => errorPage(
  t.t('errors.tooMany.title'),
  t.t('errors.tooMany.text', { wait: waitInWords(retryAfterSeconds, t) }),
  'too_many_requests', undefined, undefined, t, switchUrl,
);
