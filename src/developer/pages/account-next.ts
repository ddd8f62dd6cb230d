import { html, type Raw } from '../../web/html.js';

/**
 * Where a sign-in goes afterwards (`?next=`): only a page of the developer area on this site. Anything else
 * (another origin, `//host`, a backslash trick, the API, the sign-in pages themselves) goes to the app list,
 * so a link cannot use Lanyard's sign-in to send a developer elsewhere (an open redirect).
 */
export const HOME = '/developer';

const REFUSED = /^\/developer\/(api|sign-in|sign-out|sign-up|invitations)(\/|\?|$)/;

export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 1024 || !next.startsWith('/') || next.startsWith('//') || /[\\\s]/.test(next)) return HOME;
  let url: URL;
  try {
    url = new URL(next, 'http://lanyard.invalid');
  } catch {
    return HOME;
  }
  if (url.origin !== 'http://lanyard.invalid') return HOME;
  const path = `${url.pathname}${url.search}`;
  if (!/^\/developer(\/|\?|$)/.test(path) || REFUSED.test(path)) return HOME;
  return path;
}

/** `path` with `?next=` when there is somewhere to go back to (the sign-in and sign-up pages link to each other with it). */
export const withNext = (path: string, next: string): string => (next === HOME ? path : `${path}?next=${encodeURIComponent(next)}`);

/** The form field that carries `next` through a sign-in or sign-up form (none when it would go home anyway). */
export const nextField = (next: string | undefined): Raw | string => (next && next !== HOME ? html`<input type="hidden" name="next" value="${next}">` : '');
