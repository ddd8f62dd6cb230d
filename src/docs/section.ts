import { serviceClaimNames } from '../accounts/claims.js';
import { type Column, table } from '../web/components.js';
import type { Raw } from '../web/html.js';

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

/** A column heading: words, or an identifier shown as code (the errors tables' `error`). */
export type Heading = string | { code: string };

/**
 * A table of the guide, written as rows of cells: the shared table() (a caption for screen readers; on a
 * phone each row a block), as a scroll region keyboard users can scroll.
 */
export const docsTable = (label: string, headings: readonly Heading[], rows: readonly (readonly (Raw | string)[])[]) =>
  table(label, headings.map((h, i): Column<readonly (Raw | string)[]> =>
    (typeof h === 'string' ? { heading: h, cell: (row) => row[i] } : { heading: h.code, code: true, cell: (row) => row[i] })), rows, '', { region: true });
