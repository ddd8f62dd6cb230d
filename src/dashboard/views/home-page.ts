import type { Organisation } from '../../../adapters/store.js';
import { ROUTES } from '../../routes.js';
import { schoolResults } from '../../web/components.js';
import { html } from '../../web/html.js';
import type { Translator } from '../../web/i18n/translator.js';
import { layout } from '../../web/layout.js';

export interface HomeView {
  query: string;
  results: Organisation[];
  /** A line above the search: why the user is here again (a cancelled sign-in). */
  notice?: string | undefined;
  /** The page's language (the switch's or the browser's) and its address, for the language switch. */
  t: Translator;
  url: string;
}

/**
 * The front door for a browser that is not signed in (docs/dashboard-and-app-launch.md): find your school, then sign in with its
 * methods (the sign-in screens), then the dashboard. A plain GET form and links, so it needs no JavaScript,
 * and nothing is stored until a school is chosen.
 */
export function homePage(v: HomeView): string {
  const { query, results, t } = v;
  return layout(t.t('dashboard.home.title'), html`
<h1>${t.t('dashboard.home.heading')}</h1>
<p class="muted">${t.t('dashboard.home.lead')}</p>
${v.notice ? html`<p class="notice" role="status">${v.notice}</p>` : ''}
<form method="get" action="${ROUTES.home}" role="search">
  <label for="q">${t.t('signIn.schoolName')}</label>
  <input id="q" name="q" type="search" value="${query}" autocomplete="organization" ${query ? '' : 'autofocus'} required maxlength="100">
  <button type="submit">${t.t('signIn.search')}</button>
</form>
${schoolResults(query, results, (slug) => `${ROUTES.signIn}?org=${encodeURIComponent(slug)}`,
    t.t('dashboard.home.noMatch', { query }), t)}
`, { t, switchUrl: v.url });
}
