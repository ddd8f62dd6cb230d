import type { Organisation } from '../../../adapters/store.js';
import { REQUEST_NOTE_MAX, type SchoolStanding } from '../../clients/school-app-requests.js';
import { csrfField, field, problemsSummary, table, textArea } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { AppSummary } from '../app-summary.js';
import { AM } from './app-messages.js';
import { appFrame, appPath, sectionPath, when } from './app-parts.js';

export interface SchoolsPage {
  app: AppSummary;
  schools: SchoolStanding[];
  csrf: string;
  /** The search typed, and the schools it found (none before a search). */
  query: string;
  found: Organisation[];
  message?: string | undefined;
  /** A refused request: what was chosen and written, and why. */
  form?: { organisation: string; note: string } | undefined;
  errors?: Record<string, string> | undefined;
  formError?: string | undefined;
}

/** Where the app stands with a school, in words. */
function standing(s: SchoolStanding): Raw {
  if (s.status === 'connected') return html`<strong>Uses the app</strong> since ${when(s.connection?.createdAt)}`;
  if (s.status === 'pending') return html`<strong>Asked</strong> ${when(s.request?.requestedAt)}: waiting for the school’s answer`;
  return html`<strong>Declined</strong> ${when(s.request?.answeredAt)}. The school wrote: “${s.request?.answer ?? ''}”`;
}

/** The search for a school to ask, and its results to choose from with a note. */
function askForm(p: SchoolsPage): Raw {
  const id = p.app.client.clientId;
  const asked = new Set(p.schools.map((s) => s.organisation.id));
  const choices = p.found.filter((o) => !asked.has(o.id));
  const chosen = p.form?.organisation;
  return html`<h3 id="ask">Ask a school</h3>
<form method="get" action="${sectionPath(id, 'schools')}#ask" class="app-form" role="search">
  ${field({ name: 'q', label: 'The school’s name', type: 'search', value: p.query, autocomplete: 'off', hint: 'A part of the name is enough.' })}
  <button type="submit" class="secondary-button">Search</button>
</form>
${p.query && !choices.length ? html`<p role="status">${p.found.length ? 'Every school found already uses this app or was asked.' : `No school’s name contains “${p.query}”.`}</p>` : ''}
${p.query && choices.length ? html`<form method="post" action="${appPath(id, '/schools')}" class="app-form" novalidate>
  ${csrfField(p.csrf)}<input type="hidden" name="q" value="${p.query}">
  ${problemsSummary(p.formError, p.errors ?? {})}
  <fieldset id="f-organisation"><legend>Which school?</legend>
    ${p.errors?.organisation ? html`<p class="field-error">${p.errors.organisation}</p>` : ''}
    ${choices.map((o, i) => html`<div class="check"><input type="radio" id="school-${String(i)}" name="organisation" value="${o.id}"${
      chosen === o.id || (!chosen && choices.length === 1) ? html` checked` : ''}><label for="school-${String(i)}">${o.name}</label></div>`)}
  </fieldset>
  ${textArea({ name: 'note', label: 'A note to the school (optional)', value: p.form?.note, error: p.errors?.note, maxlength: REQUEST_NOTE_MAX,
    hint: 'What the app is for and who at the school asked for it, in a sentence or two.' })}
  <button type="submit">Ask the school</button>
</form>` : ''}`;
}

/** GET /developer/apps/:clientId/schools: the schools that use the app or were asked, and asking another. */
export function schoolsView(p: SchoolsPage): Raw {
  const { client, role } = p.app;
  const asking = client.status !== 'live' ? html`<p class="explain">${AM.schoolsNotLive}
    ${client.status === 'development' ? html` <a href="${sectionPath(client.clientId, 'live')}">Ask to go live</a>` : ''}</p>`
    : role !== 'owner' ? html`<p class="explain">${AM.schoolsOwnersOnly}</p>` : askForm(p);
  return appFrame(p.app, 'schools', 'Schools', html`
<p>${AM.schoolsHelp}</p>
${table<SchoolStanding>('The app’s schools', [
    { heading: 'School', cell: (s) => s.organisation.name },
    { heading: 'Where it stands', cell: standing },
  ], p.schools, AM.noSchools)}
${asking}`, p.message);
}
