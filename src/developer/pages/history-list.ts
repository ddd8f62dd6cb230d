import type { DeveloperEvent } from '../../../adapters/store.js';
import { html, type Raw } from '../../web/html.js';
import { shownActorName } from '../actor.js';
import { when } from './app-parts.js';

/**
 * Recorded changes, newest first (an app's, an account's): a list rather than a table, so that each change
 * reads as a sentence — its name, then `details` — and wraps on a phone, where four columns would not fit.
 * With none, the line `empty`.
 */
export function historyList(label: string, events: readonly DeveloperEvent[], names: Record<string, string>,
  details: (e: DeveloperEvent) => Raw | string, empty: string): Raw {
  if (events.length === 0) return html`<p class="empty-state">${empty}</p>`;
  return html`<ol class="history-list" aria-label="${label}">
  ${events.map((e) => {
    const more = details(e);
    const said = typeof more === 'string' ? more : more.value;
    return html`<li>
    <p class="history-what"><strong>${names[e.action] ?? e.action}</strong>${said ? html`: ${more}` : ''}</p>
    <p class="history-meta">${shownActorName(e.actorName)} · ${when(e.at)}</p>
  </li>`;
  })}
</ol>`;
}
