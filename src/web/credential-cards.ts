import { html, type Raw } from './html.js';
import { when } from './instants.js';

/** What a credential's card shows of it (an app's client secret, a developer's or a member of staff's API token). */
export interface Credential {
  label: string;
  createdAt: string;
  lastUsedAt?: string | undefined;
  expiresAt?: string | undefined;
}

const isExpired = (c: Credential, now: Date) => c.expiresAt !== undefined && Date.parse(c.expiresAt) <= now.getTime();

/** A credential's four facts: what it ends with ("…x7Kp"), when it was made, last used and expires. */
export const credentialFacts = (c: Credential, endsWith: string): Raw => html`<dl class="secret-facts">
  <div><dt>Ends with</dt><dd><code>${endsWith}</code></dd></div>
  <div><dt>Created</dt><dd>${when(c.createdAt)}</dd></div>
  <div><dt>Last used</dt><dd>${when(c.lastUsedAt)}</dd></div>
  <div><dt>Expires</dt><dd>${when(c.expiresAt)}</dd></div>
</dl>`;

/**
 * Credentials as a grid of cards, one a row on a phone: each its label (and "Expired" once `now` is past its
 * expiry), what it ends with (`endsWith`: "…x7Kp"), when it was made, last used and expires, and at the bottom
 * the way to revoke it (`revoke`: a link to a confirmation, or a one-button form). A table of them could not
 * fit a tablet's width with two dates on a line.
 */
export function credentialCards<C extends Credential>(listLabel: string, now: Date, credentials: readonly C[],
  o: { endsWith: (c: C) => string; revoke: (c: C) => Raw }): Raw {
  return html`<ul class="secret-list" aria-label="${listLabel}">
  ${credentials.map((c) => html`<li class="secret-card${isExpired(c, now) ? ' secret-expired' : ''}">
    <div class="secret-head"><strong>${c.label}</strong>${isExpired(c, now) ? html` <span class="status-badge status-expired">Expired</span>` : ''}</div>
    ${credentialFacts(c, o.endsWith(c))}
    ${o.revoke(c)}
  </li>`)}
</ul>`;
}
