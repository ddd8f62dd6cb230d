import { postButton, slashed } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { ChangeKind, ProposedChange } from '../live-changes.js';
import { AM } from './app-messages.js';
import { appPath, when } from './app-parts.js';

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
    ${waiting.map((p) => html`<li>${slashed(p.url)} <span class="muted">${AM.proposedBy(p.proposedBy.name)}, ${when(p.proposedAt)}</span>${postButton(
      appPath(clientId, `/pending-changes/${encodeURIComponent(p.id)}/withdraw`), csrf, 'Withdraw', { context: p.url, remove: true },
    )}</li>`)}
  </ul>
</div>`;
}
