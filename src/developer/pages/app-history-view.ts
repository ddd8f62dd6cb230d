import type { DeveloperEvent } from '../../../adapters/store.js';
import { emailAddress, slashed } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { AppSummary } from '../app-summary.js';
import { ACTION_TEXT, AM } from './app-messages.js';
import { appFrame, when } from './app-parts.js';
import { historyList } from './history-list.js';

/** How a change's details read: each value as written then (URLs, labels, hints, names); never a secret. */
function details(e: DeveloperEvent): Raw {
  const d = e.detail;
  const s = (k: string) => (typeof d[k] === 'string' ? d[k] : undefined);
  switch (e.action) {
    case 'callback.added': case 'callback.removed': case 'logout_url.set': case 'initiate_login_uri.set':
      return slashed(s('url') ?? '');
    case 'secret.created': case 'secret.revoked':
      return html`“${s('label')}” (ends with <code>${(s('hint') ?? '').startsWith('…') ? s('hint') : `…${s('hint') ?? ''}`}</code>)${s('expires_at') ? html`, expires ${when(s('expires_at'))}` : ''}`;
    case 'scopes.changed': {
      const scopes = Array.isArray(d.scopes) ? d.scopes : [];
      return scopes.length ? html`${scopes.map((x, i) => html`${i ? ' ' : ''}<code>${x}</code>`)}` : html`none`;
    }
    case 'team.member_added': case 'team.member_removed': case 'team.member_left':
    case 'team.invitation_accepted': case 'team.invitation_declined': case 'team.invitation_withdrawn':
      return html`${s('name')} <span class="muted">${emailAddress(s('email') ?? '')}</span>`;
    case 'team.member_invited':
      return emailAddress(s('email') ?? '');
    case 'app.registered': case 'app.deleted':
      return html`“${s('name')}”`;
    case 'app.declined':
      return s('note') ? html`“${s('note')}”` : html``;
    case 'change.proposed': case 'change.withdrawn': case 'change.approved': case 'change.declined':
      return html`${(s('setting') ?? '').replace(/_/g, ' ')} ${slashed(s('url') ?? '')}${s('note') ? html` — “${s('note')}”` : ''}`;
    case 'school.asked': case 'school.approved': case 'school.declined': case 'school.disconnected': {
      const said = s('note') ?? s('reason');
      return html`${s('school')}${said ? html` — “${said}”` : ''}`;
    }
    case 'app.live_request_withdrawn':
      return html`${(s('setting') ?? '').replace(/_/g, ' ')}`;
    default:
      return html`${Object.entries(d).map(([k, v], i) => html`${i ? '; ' : ''}${k.replace(/_/g, ' ')}: ${Array.isArray(v) ? v.join(' ') : v}`)}`;
  }
}

/** GET /developer/apps/:clientId/history: who changed what, when, newest first (history-list.ts). */
export function historyView(app: AppSummary, events: DeveloperEvent[], message?: string): Raw {
  return appFrame(app, 'history', 'History', html`
<p>${AM.historyHelp}</p>
${historyList('Changes to the app, newest first', events, ACTION_TEXT, details, AM.noHistory)}`, message);
}
