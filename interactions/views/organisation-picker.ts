import type { Organisation } from '../../adapters/store.js';
import { schoolResults } from '../../src/web/components.js';
import { html } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';

export function organisationPicker(uid: string, clientName: string, query: string, results: Organisation[]): string {
  return layout('Choose your school', html`
<h1>Find your school</h1>
<p class="muted">Signing in to ${clientName}</p>
<form method="get" action="/interaction/${uid}" role="search">
  <label for="q">School name</label>
  <input id="q" name="q" type="search" value="${query}" autocomplete="organization" ${query ? '' : 'autofocus'} required>
  <button type="submit">Search</button>
</form>
${schoolResults(query, results, (slug) => `/interaction/${uid}?org=${encodeURIComponent(slug)}`, `No school matches “${query}”.`)}
`);
}
