import { LOCALE_NAMES, LOCALES } from '../../formats/locales.js';
import { isProviderPath } from '../../routes.js';
import { html, type Raw } from '../html.js';
import type { Translator } from './translator.js';

const BASE = 'http://page.invalid';

/**
 * Where an error page's switch may lead, given the request's address (req.url): there, unless it is a protocol
 * endpoint's (oidc-provider's), whose query carries an app's parameters — a redirect_uri that may be the very
 * error — which a page must not link to again: no switch there.
 */
export const errorSwitchUrl = (url: string): string | undefined => (isProviderPath(url) ? undefined : url);

/**
 * The page's address as the switch's links start from: `url`'s path and query, or the front door's (as
 * src/web/issuer-host.ts does) where the path would be another site's address to a browser — `//evil.example/x`
 * (what `/.//evil.example/x` or an absolute-form request target `http://x//evil.example/` parse to), or `/\…` —
 * or does not parse.
 */
export function switchBase(url: string): URL {
  let to: URL;
  try {
    to = new URL(url, BASE);
  } catch {
    return new URL('/', BASE);
  }
  const path = to.pathname;
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? to : new URL('/', BASE);
}

/**
 * The visible language switch: a link per language to this same page with `?lang=` (kept in a cookie by
 * translatorFor), each named in its own language and marked with it, the current one `aria-current`.
 * `url` is the page's path and query as the browser asked for it (req.url); a GET link works without JavaScript.
 */
export function languageSwitch(t: Translator, url: string): Raw {
  const link = (locale: (typeof LOCALES)[number]) => {
    const to = switchBase(url);
    to.searchParams.set('lang', locale);
    const href = `${to.pathname}${to.search}`;
    return html`<li><a href="${href}" lang="${locale}" hreflang="${locale}"${
      locale === t.locale ? html` aria-current="true"` : ''}>${LOCALE_NAMES[locale]}</a></li>`;
  };
  return html`<nav class="language-switch" aria-label="${t.t('language.switch')}">
<span aria-hidden="true">🌐</span><ul>${LOCALES.map(link)}</ul>
</nav>`;
}
