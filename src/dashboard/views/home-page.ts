import type { Organisation } from '../../../adapters/store.js';
import { ROUTES } from '../../routes.js';
import { schoolResults } from '../../web/components.js';
import { html } from '../../web/html.js';
import { layout } from '../../web/layout.js';

export interface HomeView {
  query: string;
  results: Organisation[];
  /** A line above the search: why the user is here again (a cancelled sign-in). */
  notice?: string | undefined;
}

/**
 * The front door for a browser that is not signed in (docs/dashboard-and-app-launch.md): find your school, then sign in with its
 * methods (the sign-in screens), then the dashboard. A plain GET form and links, so it needs no JavaScript,
 * and nothing is stored until a school is chosen.
 */
export function homePage(v: HomeView): string {
  const { query, results } = v;
  return layout('Sign in to your school', html`
<h1>Find your school</h1>
<p class="muted">Sign in once, then open all your school’s apps.</p>
${v.notice ? html`<p class="notice" role="status">${v.notice}</p>` : ''}
<form method="get" action="${ROUTES.home}" role="search">
  <label for="q">School name</label>
  <input id="q" name="q" type="search" value="${query}" autocomplete="organization" ${query ? '' : 'autofocus'} required maxlength="100">
  <button type="submit">Search</button>
</form>
${schoolResults(query, results, (slug) => `${ROUTES.signIn}?org=${encodeURIComponent(slug)}`,
    `No school matches “${query}”. Check the spelling, or ask your teacher for your school’s name.`)}
`);
}
