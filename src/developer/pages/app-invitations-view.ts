import { postButton } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { TeamInvitation } from '../team-invitations.js';
import { AM } from './app-messages.js';
import { when } from './app-parts.js';

/** The address of an invitation's answer (`accept` or `decline`). */
export const invitationPath = (clientId: string, answer: 'accept' | 'decline') => `/developer/invitations/${encodeURIComponent(clientId)}/${answer}`;

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
      ${postButton(invitationPath(i.client.clientId, 'accept'), csrf, 'Accept', { primary: true, context: `the invitation to ${i.client.name}` })}
      ${postButton(invitationPath(i.client.clientId, 'decline'), csrf, 'Decline', { context: `the invitation to ${i.client.name}` })}
    </div>
  </li>`)}
</ul>
</section>`;
}
