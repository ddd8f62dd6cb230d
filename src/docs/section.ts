import { serviceClaimNames } from '../accounts/claims.js';
import { html, type Raw } from '../web/html.js';

/** What every section of the guide is written from: the issuer it documents (the examples use it). */
export interface DocsContext {
  issuer: string;
  /** The service-specific claim names under this issuer (`{issuer}/claims/…`). */
  claims: ReturnType<typeof serviceClaimNames>;
}

export const docsContext = (issuer: string): DocsContext => ({ issuer, claims: serviceClaimNames(issuer) });

/** One section of the developer guide (/docs): a heading with an anchor, and its body. */
export interface DocSection {
  /** The anchor: /docs#<id>. Stable: other pages link to these. */
  id: string;
  title: string;
  body(ctx: DocsContext): Raw;
}

/** A block of example code or output (escaped; keyboard users can scroll it: it takes focus). */
export const codeBlock = (text: string, label: string) =>
  html`<pre class="docs-code" tabindex="0" aria-label="${label}"><code>${text.trim()}</code></pre>`;
