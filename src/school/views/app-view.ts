import type { SchoolApp } from '../../clients/school-apps.js';
import { csrfField, field, flash, postButton } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { appReceivesView } from './app-receives-view.js';
import { appsPath, connectedBy, whoMayUse } from './apps-view.js';

export interface AppPage {
  slug: string;
  issuer: string;
  csrf: string;
  app: SchoolApp;
  /** Its place on the dashboard (1-based) and how many the school orders itself. */
  place: number;
  places: number;
  message?: string | undefined;
  /** A refused form: which, what was typed, and why. */
  refused?: { form: 'types' | 'place'; value: string; message: string } | undefined;
}

/** GET /school/:org/apps/:clientId: one of the school's apps — what it receives, who may use it, its place, and stopping. */
export function appView(p: AppPage): Raw {
  const { client, connection } = p.app;
  const base = appsPath(p.slug, `/${encodeURIComponent(client.clientId)}`);
  const ours = connection !== undefined && connection.source !== 'config';
  const refused = (form: 'types' | 'place') => (p.refused?.form === form ? p.refused : undefined);
  return html`<div class="app-page school-app">
<p class="app-back"><a href="${appsPath(p.slug)}">← All the school’s apps</a></p>
<h1>${client.name}</h1>
${flash(p.message)}
${client.description ? html`<p>${client.description}</p>` : ''}
<dl class="dev-facts">
  <dt>Place on the dashboard</dt><dd>${String(p.place)}</dd>
  <dt>Who may use it</dt><dd>${whoMayUse(connection)}</dd>
  <dt>Put there by</dt><dd>${connectedBy(connection)}</dd>
</dl>

<h2>What it receives about the people it signs in</h2>
${appReceivesView(client, p.issuer)}

${ours ? html`
<h2 id="types">Who may use it</h2>
<form method="post" action="${base}/types" class="app-form" novalidate>
  ${csrfField(p.csrf)}
  ${field({ name: 'user_types', label: 'Only these user types', value: refused('types')?.value ?? (connection.userTypes ?? []).join(', '), error: refused('types')?.message,
    hint: 'For example: student, or student, teacher. Leave it empty for everyone. Others do not see it on their dashboard, and it cannot sign them in.', autocomplete: 'off' })}
  <button type="submit">Save who may use it</button>
</form>

<h2 id="place">Place on the dashboard</h2>
<form method="post" action="${base}/move" class="app-form" novalidate>
  ${csrfField(p.csrf)}<input type="hidden" name="from" value="app">
  ${field({ name: 'place', label: `Place (1 to ${p.places})`, type: 'number', value: refused('place')?.value ?? String(p.place), error: refused('place')?.message,
    attrs: html`min="1" max="${String(p.places)}" inputmode="numeric"` })}
  <button type="submit">Move it</button>
</form>

<h2 id="stop">Stop using it</h2>
<p>It leaves your school’s dashboards and signs no one of the school in from now on. Whoever is signed in to it keeps
using it until their session there ends.</p>
${postButton(`${base}/disconnect`, p.csrf, 'Stop using this app', { danger: true, context: client.name })}`
    : html`<p class="explain">${connection ? 'The configuration file puts this app on your school’s dashboards: ask Lanyard’s operator to change it.'
      : 'The configuration file puts this app on every school’s dashboards. Choose it here to decide who may use it and where it sits.'}</p>
${connection ? '' : postButton(appsPath(p.slug, '/connect'), p.csrf, 'Choose here', { hidden: { client_id: client.clientId }, context: client.name })}`}
</div>`;
}
