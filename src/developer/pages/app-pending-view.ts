import { reviewedUrl } from '../../clients/reviewed-url.js';
import { postButton, slashed } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { ChangeKind, ProposedChange } from '../live-changes.js';
import { AM } from './app-messages.js';
import { appPath, when } from './app-parts.js';

/**
 * What the operator will see of the URL's host (src/clients/reviewed-url.ts), so the team sees it first: the
 * host as DNS spells it, when it is an internationalised name, and a warning when it mixes writing systems.
 */
function hostNotes(url: string): Raw | string {
  const r = reviewedUrl(url);
  if (!r.unicodeHost && !r.warning) return '';
  return html`<p class="hint">${AM.asciiHost(new URL(r.ascii).host)}</p>${r.warning ? html`<p class="warning">${AM.hostWarning(r.warning)}</p>` : ''}`;
}

/**
 * The changes of one setting waiting for an operator's review on a live app (docs/developer-area.md → Changes
 * to a live app), each with who proposed it, when, and a button to withdraw it. Nothing when none wait.
 */
export function pendingChangesView(clientId: string, pending: readonly ProposedChange[] | undefined, kind: ChangeKind, csrf: string): Raw | string {
  const waiting = (pending ?? []).filter((p) => p.kind === kind);
  if (waiting.length === 0) return '';
  return html`<div class="explain pending-changes" id="pending-${kind}">
  <p><strong>${AM.pendingTitle}</strong> ${AM.pendingHelp}</p>
  <ul class="url-list" aria-label="${AM.pendingTitle}">
    ${waiting.map((p) => html`<li><div class="pending-url">${slashed(p.url)}
      <p class="muted">${AM.proposedBy(p.proposedBy.name)}, ${when(p.proposedAt)}</p>${hostNotes(p.url)}</div>${postButton(
      appPath(clientId, `/pending-changes/${encodeURIComponent(p.id)}/withdraw`), csrf, 'Withdraw', { context: p.url, remove: true },
    )}</li>`)}
  </ul>
</div>`;
}
