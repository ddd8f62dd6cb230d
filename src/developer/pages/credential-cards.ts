import { html, type Raw } from '../../web/html.js';

/** One credential (an app's client secret, a developer's API token) as the developer area lists it. */
export interface CredentialCard {
  label: string;
  expired: boolean;
  /** Name and value, in order: what it ends with, when it was made, last used, expires. */
  facts: [string, Raw | string][];
  /** The way to revoke it: a link to a confirmation, or a one-button form. */
  revoke: Raw;
}

/**
 * Credentials as a grid of cards, one a row on a phone: each its label (and "Expired"), its facts under their
 * names, and its Revoke at the bottom. A table of them could not fit a tablet's width with two dates on a line.
 */
export const credentialCards = (listLabel: string, cards: CredentialCard[]): Raw => html`<ul class="secret-list" aria-label="${listLabel}">
  ${cards.map((c) => html`<li class="secret-card${c.expired ? ' secret-expired' : ''}">
    <div class="secret-head"><strong>${c.label}</strong>${c.expired ? html` <span class="status-badge status-expired">Expired</span>` : ''}</div>
    <dl class="secret-facts">
      ${c.facts.map(([name, value]) => html`<div><dt>${name}</dt><dd>${value}</dd></div>`)}
    </dl>
    ${c.revoke}
  </li>`)}
</ul>`;
