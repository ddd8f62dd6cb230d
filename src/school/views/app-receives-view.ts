import type { StoredClient } from '../../../adapters/store.js';
import { appReceives, identityClaims, type ReceivedClaim } from '../../clients/app-receives.js';
import { logoPath } from '../../clients/logo-image.js';
import { breakableCode } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';

/** Claims as a list a school reads: what, when, and the claim's name for whoever checks. */
const claimList = (claims: ReceivedClaim[]): Raw => html`<ul class="claim-list">
  ${claims.map((c) => html`<li>${c.what} <span class="muted">(${c.when}; ${breakableCode(c.claim, '/')})</span></li>`)}
</ul>`;

/**
 * What an app receives about the people it signs in (src/clients/app-receives.ts): each default scope with its
 * claims; with none, what a sign-in may still ask for (`openid`).
 */
export function appReceivesView(client: StoredClient, issuer: string): Raw {
  const scopes = appReceives(client, issuer);
  if (!scopes.length) {
    return html`<p>It asks for no scopes by default. When it signs someone in it may still ask for <code>openid</code>, and then receives:</p>
${claimList(identityClaims(issuer))}`;
  }
  // A scope that carries what an earlier one does says so, and lists only what it adds.
  const said = new Set<string>();
  return html`${scopes.map((s) => {
    const more = s.claims.filter((c) => !said.has(c.claim));
    const repeats = more.length < s.claims.length;
    for (const c of s.claims) said.add(c.claim);
    return html`<p><code>${s.scope}</code>: ${s.title}. ${repeats ? 'The same, and also:' : 'It receives:'}</p>${claimList(more)}`;
  })}`;
}

/** An app's name with its logo (Lanyard's own copy) or nothing, and its description and homepage when it has them. */
export function appHeading(client: StoredClient, level: 'h2' | 'h3', id?: string): Raw {
  const logo = logoPath(client);
  const name = html`${logo ? html`<img class="app-logo" src="${logo}" alt="" width="32" height="32"> ` : ''}${client.name}`;
  const heading = level === 'h2' ? html`<h2${id ? html` id="${id}"` : ''}>${name}</h2>` : html`<h3${id ? html` id="${id}"` : ''}>${name}</h3>`;
  return html`${heading}
${client.description ? html`<p>${client.description}</p>` : ''}
${client.homepageUrl ? html`<p>Its homepage: <a href="${client.homepageUrl}" rel="noopener noreferrer">${breakableCode(client.homepageUrl, '/.')}</a></p>` : ''}`;
}
