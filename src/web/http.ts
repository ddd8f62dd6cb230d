import type { FastifyReply } from 'fastify';

/**
 * How every server-rendered page answers (the sign-in screens, the developer area, and what follows): pages
 * are never cached (they show personal data, forms and one-time values), and a state change answers 303.
 */

/** Sends an HTML page, never cached. */
export const sendHtml = (reply: FastifyReply, status: number, page: string) =>
  reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(page);

/** A 303 after a POST (state changes answer with See Other: a reload does not post again). */
export const seeOther = (reply: FastifyReply, to: string) => reply.header('Cache-Control', 'no-store').redirect(to, 303);

/** One text field of a urlencoded form ('' when absent; the first when repeated). */
export function formField(body: unknown, name: string): string {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s : '';
}

/** Every value of a repeated field (checkboxes): none, one or many. */
export function formFields(body: unknown, name: string): string[] {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string');
}

/**
 * A file that answers a form (a PDF of new credentials): downloaded under `filename` (letters, digits, dots
 * and hyphens kept), never cached; nothing keeps a copy of it.
 */
export const sendAttachment = (reply: FastifyReply, type: string, filename: string, body: Buffer) =>
  reply.code(200).header('Cache-Control', 'no-store').header('Content-Type', type)
    .header('Content-Disposition', `attachment; filename="${filename.replace(/[^A-Za-z0-9.-]/g, '-')}"`).send(body);
