import { COPY_SCRIPT, copyable, csrfField, emailAddress, errorMessage, field, postButton } from '../../web/components.js';
import { showUnseen } from '../../formats/unseen-characters.js';
import { html, type Raw } from '../../web/html.js';
import type { AppSummary, TeamMemberView } from '../app-summary.js';
import { AM } from './app-messages.js';
import { appFrame, appPath, when } from './app-parts.js';

export interface TeamData {
  app: AppSummary;
  team: TeamMemberView[];
  /** The signed-in developer. */
  me: string;
  csrf: string;
  message?: string | undefined;
  add?: { email: string; error?: string | undefined } | undefined;
  /** A refusal that is not about the email field (the last owner leaving). */
  formError?: string | undefined;
  /** The link of the invitation just made, shown this once. */
  revealed?: RevealedLink | undefined;
}

/** An invitation's link, as the reveal cookie carries it to the team page. */
export interface RevealedLink {
  email: string;
  url: string;
  /** ISO 8601. */
  expiresAt: string;
}

const ROLE_TEXT = { owner: 'Owner', member: 'Member', invited: 'Invited, not yet accepted' } as const;

/**
 * GET /developer/apps/:clientId/team: who can change the app; owners invite and remove (or withdraw an
 * invitation), members may leave. Invited people are listed, marked as such, but reach nothing yet.
 */
export function teamView(d: TeamData): Raw {
  const id = d.app.client.clientId;
  const owner = d.app.role === 'owner';
  const owners = d.team.filter((m) => m.role === 'owner').length;
  return appFrame(d.app, 'team', 'Team', html`
${d.revealed ? html`<div class="reveal" id="invitation-link-box">
  <h3>${AM.teamLinkTitle} ${emailAddress(d.revealed.email)}</h3>
  <p>${AM.teamLinkOnce}</p>
  <p>Valid until ${when(d.revealed.expiresAt)}.</p>
  ${copyable('invitation-link', d.revealed.url, 'the invitation link')}
</div>
${COPY_SCRIPT}` : ''}
<p>${AM.teamHelp}</p>
${owner ? html`<p class="hint">${AM.teamInviteHelp}</p>` : ''}
${errorMessage(d.formError)}
<ul class="team-list" aria-label="Team members">
  ${d.team.map((m) => {
    const self = m.developerId === d.me;
    const lastOwner = m.role === 'owner' && owners === 1;
    const invited = m.role === 'invited';
    const action = lastOwner ? ''
      : self ? postButton(appPath(id, '/team/remove'), d.csrf, 'Leave the team', { hidden: { developer_id: m.developerId }, remove: true })
        : owner ? postButton(appPath(id, '/team/remove'), d.csrf, invited ? 'Withdraw the invitation' : 'Remove', { context: invited ? `to ${showUnseen(m.displayName)}` : m.displayName, hidden: { developer_id: m.developerId }, remove: true }) : '';
    return html`<li class="team-member${invited ? ' team-invited' : ''}">
    <div class="team-who">${invited ? html`<strong>${emailAddress(m.email)}</strong>` : html`<strong>${m.displayName}</strong>${self ? html` <span class="muted">(you)</span>` : ''}<br><span class="muted">${emailAddress(m.email)}</span>`}</div>
    <div class="team-role">${ROLE_TEXT[m.role]}<br><span class="muted">${invited ? 'invited' : 'since'} ${when(m.addedAt)}</span></div>
    <div class="team-action">${action}</div>
  </li>`;
  })}
</ul>
${owner ? html`<form method="post" action="${appPath(id, '/team')}" class="app-form add-form" novalidate>
  ${csrfField(d.csrf)}
  ${field({ name: 'email', label: 'Invite a developer by email', type: 'email', value: d.add && showUnseen(d.add.email), error: d.add?.error, autocomplete: 'off',
    hint: 'The email address of their developer account. They join as a member once they accept.', autofocus: !!d.add?.error })}
  <button type="submit">Invite to the team</button>
</form>` : html`<p class="muted">Only an owner of the app can add or remove people.</p>`}`, d.message);
}
