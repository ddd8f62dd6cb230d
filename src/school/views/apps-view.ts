import type { AppConnection } from '../../../adapters/store.js';
import type { SchoolApp } from '../../clients/school-apps.js';
import { DECLINE_REASON_MAX } from '../../clients/school-app-requests.js';
import { csrfField, flash, postButton, table, textArea } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { AppChoices, AskingApp } from '../app-choices.js';
import { appHeading, appReceivesView } from './app-receives-view.js';
import { schoolPath } from './school-layout.js';

/** What the Apps page shows besides the school's choices: addresses, the form's token, a message or a refusal. */
export interface AppsPage {
  slug: string;
  issuer: string;
  csrf: string;
  message?: string | undefined;
  /** A refused decline: the app's client_id and why (shown at its form). */
  declineError?: { clientId: string; message: string; reason: string } | undefined;
}

export const appsPath = (slug: string, rest = '') => schoolPath(slug, `/apps${rest}`);
const appPath = (slug: string, clientId: string, rest = '') => appsPath(slug, `/${encodeURIComponent(clientId)}${rest}`);

/** A day as people read it (UTC, as every instance stores it). */
export const day = (iso: string | undefined) => (iso ? html`<time class="nowrap" datetime="${iso}">${iso.slice(0, 10)}</time>` : '');

/** Who may use the app: its connection's user types, or everyone. */
export const whoMayUse = (connection: AppConnection | undefined) => (connection?.userTypes?.length ? connection.userTypes.join(', ') : 'Everyone');

/** Who put the app on the school's dashboards. */
export function connectedBy(connection: AppConnection | undefined): string {
  if (!connection) return 'The configuration file, for every school';
  return { config: 'The configuration file', operator: 'Lanyard’s operator', school: 'A school admin' }[connection.source];
}

function askingCard(p: AppsPage, a: AskingApp): Raw {
  const id = a.client.clientId;
  const refused = p.declineError?.clientId === id ? p.declineError : undefined;
  const headingId = `asking-${id}`;
  return html`<li class="app-card request-card" aria-labelledby="${headingId}">
  ${appHeading(a.client, 'h3', headingId)}
  <p>Developed by ${a.team.length ? a.team.join(', ') : 'a team of developers'}. Asked on ${day(a.request.requestedAt)}.</p>
  ${a.request.note ? html`<p>Their note:</p><blockquote class="request-note">${a.request.note}</blockquote>` : ''}
  <h4>What it receives about the people it signs in</h4>
  ${appReceivesView(a.client, p.issuer)}
  <div class="form-actions">${postButton(appsPath(p.slug, `/requests/${encodeURIComponent(id)}/approve`), p.csrf, 'Approve', { primary: true, context: a.client.name })}</div>
  <form method="post" action="${appsPath(p.slug, `/requests/${encodeURIComponent(id)}/decline`)}" class="app-form decline-form" novalidate>
    ${csrfField(p.csrf)}
    ${textArea({ name: `reason-${id}`, label: `Or decline “${a.client.name}”, saying why`, value: refused?.reason, error: refused?.message, maxlength: DECLINE_REASON_MAX,
      hint: 'Its developers read this. Nobody at the school is named.' })}
    <button type="submit" class="remove">Decline<span class="visually-hidden"> ${a.client.name}</span></button>
  </form>
</li>`;
}

function declinedList(p: AppsPage, declined: AskingApp[]): Raw | '' {
  if (!declined.length) return '';
  return html`<details class="declined-requests">
  <summary>Declined (${declined.length})</summary>
  <ul class="link-list">${declined.map((a) => html`<li>
    <strong>${a.client.name}</strong>, declined on ${day(a.request.answeredAt)}: “${a.request.answer ?? ''}”
    ${postButton(appsPath(p.slug, `/requests/${encodeURIComponent(a.client.clientId)}/approve`), p.csrf, 'Approve after all', { context: a.client.name })}
  </li>`)}</ul>
</details>`;
}

/** The actions of one row of the school's apps: move it, change it, or connect it here (an app of every school). */
function rowActions(p: AppsPage, app: SchoolApp, place: number, movable: number): Raw {
  const { client, connection } = app;
  if (!connection) {
    return postButton(appsPath(p.slug, '/connect'), p.csrf, 'Choose here', { hidden: { client_id: client.clientId }, context: `who uses ${client.name} and where it sits` });
  }
  if (connection.source === 'config') return html`<span class="muted">Set in the configuration file</span>`;
  const move = (to: number, label: string) => postButton(appPath(p.slug, client.clientId, '/move'), p.csrf, label, { hidden: { place: String(to) }, context: client.name });
  return html`<div class="row-actions">
    ${place > 1 ? move(place - 1, 'Move up') : ''}
    ${place < movable ? move(place + 1, 'Move down') : ''}
    <a class="button-link" href="${appPath(p.slug, client.clientId)}">Change<span class="visually-hidden"> ${client.name}</span></a>
  </div>`;
}

/** GET /school/:org/apps: the apps asking, the school's apps in the dashboard's order, and the apps offered. */
export function appsView(p: AppsPage, c: AppChoices): Raw {
  const movable = c.apps.filter((a) => a.connection).length;
  return html`<div class="app-page school-apps">
<h1>Apps</h1>
${flash(p.message)}
<p>The apps on your school’s dashboards, in their order, and who may use each. An app signs in only the people of
the schools that use it.</p>

<h2 id="asking">Asking to be used by the school</h2>
${c.asking.length ? html`<ul class="app-cards request-cards">${c.asking.map((a) => askingCard(p, a))}</ul>`
    : html`<p class="empty-state">No app is asking to be used by the school.</p>`}
${declinedList(p, c.declined)}

<h2 id="connected">Your school’s apps</h2>
${table<SchoolApp & { place: number }>('Your school’s apps, in the dashboard’s order', [
    { heading: 'Place', cell: (a) => String(a.place) },
    { heading: 'App', cell: (a) => html`<strong>${a.client.name}</strong>${a.client.status !== 'live' ? html` <span class="muted">(not live: signs no one in)</span>` : ''}` },
    { heading: 'Who may use it', cell: (a) => whoMayUse(a.connection) },
    { heading: 'Put there by', cell: (a) => connectedBy(a.connection) },
    { heading: 'Actions', cell: (a) => rowActions(p, a, a.place, movable) },
  ], c.apps.map((a, i) => ({ ...a, place: i + 1 })), 'Your school uses no apps yet: approve one asking, or connect one offered.')}

<h2 id="offered">Offered</h2>
<p>Apps Lanyard’s operator offers to every school. None is on your dashboards until you connect it.</p>
${c.offered.length ? html`<ul class="app-cards">${c.offered.map((client) => html`<li class="app-card" aria-labelledby="offered-${client.clientId}">
  ${appHeading(client, 'h3', `offered-${client.clientId}`)}
  <details><summary>What it receives<span class="visually-hidden"> about the people it signs in</span></summary>${appReceivesView(client, p.issuer)}</details>
  ${postButton(appsPath(p.slug, '/connect'), p.csrf, 'Connect', { primary: true, hidden: { client_id: client.clientId }, context: client.name })}
</li>`)}</ul>` : html`<p class="empty-state">No other app is offered to the school.</p>`}
</div>`;
}
