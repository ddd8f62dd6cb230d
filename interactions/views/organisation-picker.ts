import type { Organisation } from '../../adapters/store.js';
import { html } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';

export function organisationPicker(uid: string, clientName: string, query: string, results: Organisation[]): string {
  return layout('Choose your school', html`
<h1>Find your school</h1>
<p class="muted">to sign in to ${clientName}</p>
<form method="get" action="/interaction/${uid}" role="search">
  <label for="q">School name</label>
  <input id="q" name="q" type="search" value="${query}" autocomplete="organization" ${query ? '' : 'autofocus'} required>
  <button type="submit">Search</button>
</form>
${query ? (results.length
    ? html`<p class="visually-hidden" role="status">${results.length} ${results.length === 1 ? 'school' : 'schools'} found</p>
<ul class="choices" aria-label="Schools">${results.map((o) => html`
  <li><a class="choice" href="/interaction/${uid}?org=${encodeURIComponent(o.slug)}">${o.name}</a></li>`)}
</ul>`
    : html`<p role="status">No school matches “${query}”.</p>`) : ''}
`);
}
