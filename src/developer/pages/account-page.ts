import { html, type Raw } from '../../web/html.js';

/** The error of one field among a ValidationError's problems. */
export const fieldError = (fields: { path: string; message: string }[], name: string): string | undefined =>
  fields.find((f) => f.path === name)?.message;

/** A moment as people read it, in UTC (the server does not know the reader's zone), inside <time>. */
export const when = (iso: string): Raw => html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
