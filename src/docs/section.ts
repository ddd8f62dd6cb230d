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

/** A column heading: words, or an identifier shown as code (the errors tables' `error`). */
export type Heading = string | { code: string };

const headingText = (h: Heading) => (typeof h === 'string' ? h : h.code);

/**
 * A table of the guide: a scroll region (keyboard users can scroll it: it takes focus) with a caption for
 * screen readers. On a phone each row stacks into a block, each cell after the first under its column's
 * name (data-label), so that identifiers stay whole instead of breaking in a narrow column.
 */
export const docsTable = (label: string, headings: readonly Heading[], rows: readonly (readonly (Raw | string)[])[]) =>
  html`<div class="table-wrap stack-table" role="region" tabindex="0" aria-label="${label}"><table>
  <caption class="visually-hidden">${label}</caption>
  <thead><tr>${headings.map((h) => html`<th scope="col">${typeof h === 'string' ? h : html`<code>${h.code}</code>`}</th>`)}</tr></thead>
  <tbody>${rows.map((row) => html`
    <tr>${row.map((cell, i) => html`<td data-label="${headingText(headings[i] ?? '')}">${cell}</td>`)}</tr>`)}
  </tbody>
</table></div>`;
