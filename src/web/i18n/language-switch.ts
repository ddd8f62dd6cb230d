import { LOCALE_NAMES, LOCALES } from '../../formats/locales.js';
import { html, type Raw } from '../html.js';
import type { Translator } from './translator.js';

/**
 * The visible language switch: a link per language to this same page with `?lang=` (kept in a cookie by
 * translatorFor), each named in its own language and marked with it, the current one `aria-current`.
 * `url` is the page's path and query as the browser asked for it (req.url); a GET link works without JavaScript.
 */
export function languageSwitch(t: Translator, url: string): Raw {
  const link = (locale: (typeof LOCALES)[number]) => {
    const to = new URL(url, 'http://page.invalid');
    to.searchParams.set('lang', locale);
    const href = `${to.pathname}${to.search}`;
    return html`<li><a href="${href}" lang="${locale}" hreflang="${locale}"${
      locale === t.locale ? html` aria-current="true"` : ''}>${LOCALE_NAMES[locale]}</a></li>`;
  };
  return html`<nav class="language-switch" aria-label="${t.t('language.switch')}">
<span aria-hidden="true">🌐</span><ul>${LOCALES.map(link)}</ul>
</nav>`;
}
