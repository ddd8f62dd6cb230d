import { csrfField } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { TeamInvitation } from '../team-invitations.js';
import { AM } from './app-messages.js';
import { when } from './app-parts.js';

/** The address of an invitation's answer (`accept` or `decline`). */
export const invitationPath = (clientId: string, answer: 'accept' | 'decline') => `/developer/invitations/${encodeURIComponent(clientId)}/${answer}`;

/** One answer as its own small form: a button whose accessible name says which app it answers for. */
const answer = (action: string, csrf: string, label: string, app: string, cls: string) => html`<form method="post" action="${action}" class="inline-form">
  ${csrfField(csrf)}<button type="submit"${cls ? html` class="${cls}"` : ''}>${label}<span class="visually-hidden"> the invitation to ${app}</span></button>
</form>`;

/**
 * On GET /developer, above the apps: the invitations to a team not yet answered, each with the app's name,
 * who invited the developer and when, and Accept / Decline. Nothing else of the app: it is not theirs yet.
 */
export function invitationsView(invitations: TeamInvitation[], csrf: string): Raw {
  if (invitations.length === 0) return html``;
  return html`<section class="invitations" aria-labelledby="invitations-heading">
<h2 id="invitations-heading">${AM.invitationsTitle}</h2>
<p class="muted">${AM.invitationsIntro}</p>
<ul class="app-cards" aria-label="${AM.invitationsTitle}">
  ${invitations.map((i) => html`<li class="app-card invitation-card">
    <p class="invitation-what"><strong class="app-card-name">${i.client.name}</strong></p>
    <p class="muted">${AM.invitedBy(i.invitedBy.name)} · ${when(i.invitedAt)}</p>
    <div class="invitation-actions">
      ${answer(invitationPath(i.client.clientId, 'accept'), csrf, 'Accept', i.client.name, '')}
      ${answer(invitationPath(i.client.clientId, 'decline'), csrf, 'Decline', i.client.name, 'secondary-button')}
    </div>
  </li>`)}
</ul>
</section>`;
}
