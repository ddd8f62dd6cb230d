import { postButton } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { TeamInvitation } from '../team-invitations.js';
import { AM } from './app-messages.js';
import { when } from './app-parts.js';

/** The address of an invitation's answer (`accept` or `decline`). */
export const invitationPath = (clientId: string, answer: 'accept' | 'decline') => `/developer/invitations/${encodeURIComponent(clientId)}/${answer}`;

/** Accept and Decline of one invitation; Accept carries the link's token where one is needed (an address never verified). */
function answers(i: TeamInvitation, csrf: string, token?: string): Raw {
  const context = `the invitation to ${i.client.name}`;
  const accept = token !== undefined || !i.byLink
    ? postButton(invitationPath(i.client.clientId, 'accept'), csrf, 'Accept', { primary: true, context, hidden: token === undefined ? {} : { token } })
    : '';
  return html`<div class="invitation-actions">
      ${accept}
      ${postButton(invitationPath(i.client.clientId, 'decline'), csrf, 'Decline', { context })}
    </div>`;
}

/**
 * On GET /developer, above the apps: the invitations to a team not yet answered, each with the app's name,
 * who invited the developer and when, and Accept / Decline (Accept only through the link for an address never verified).
 * Nothing else of the app: it is not theirs yet.
 */
export function invitationsView(invitations: TeamInvitation[], csrf: string): Raw {
  if (invitations.length === 0) return html``;
  return html`<section class="invitations" aria-labelledby="invitations-heading">
<h2 id="invitations-heading">${AM.invitationsTitle}</h2>
<p class="muted">${invitations[0]!.byLink ? AM.invitationsIntroLink : AM.invitationsIntro}</p>
<ul class="app-cards" aria-label="${AM.invitationsTitle}">
  ${invitations.map((i) => html`<li class="app-card invitation-card">
    <p class="invitation-what"><strong class="app-card-name">${i.client.name}</strong></p>
    <p class="muted">${AM.invitedBy(i.invitedBy.name)} · ${when(i.invitedAt)}</p>
    ${i.byLink ? html`<p class="hint">${AM.acceptByLink}</p>` : ''}
    ${answers(i, csrf)}
  </li>`)}
</ul>
</section>`;
}

/** GET /developer/team-invitations/:token: the invitation a link stands for, to accept or decline. */
export function joinView(i: TeamInvitation, token: string, csrf: string): Raw {
  return html`<div class="app-page join-page">
<h1>${AM.joinTitle(i.client.name)}</h1>
<p>${AM.invitedBy(i.invitedBy.name)} · ${when(i.invitedAt)}</p>
<p>${AM.joinIntro}</p>
${answers(i, csrf, token)}
</div>`;
}
