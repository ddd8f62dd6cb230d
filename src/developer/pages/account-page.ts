import { html, type Raw } from '../../web/html.js';
import type { FastifyReply } from 'fastify';

/** Sends a page of the developer area: never cached (they show personal data, forms and one-time values). */
export const sendPage = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);

/** A 303 after a POST (state changes answer with See Other: a reload does not post again). */
export const seeOther = (reply: FastifyReply, to: string) => reply.header('Cache-Control', 'no-store').redirect(to, 303);

/** One text field of a urlencoded form ('' when absent; the first when repeated). */
export function formField(body: unknown, name: string): string {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s : '';
}

/** The error of one field among a ValidationError's problems. */
export const fieldError = (fields: { path: string; message: string }[], name: string): string | undefined =>
  fields.find((f) => f.path === name)?.message;

/** A moment as people read it, in UTC (the server does not know the reader's zone), inside <time>. */
export const when = (iso: string): Raw => html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
