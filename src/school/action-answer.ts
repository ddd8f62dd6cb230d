import type { FastifyReply } from 'fastify';
import { sendAttachment, seeOther } from '../web/http.js';
import { area } from './area.js';
import type { SchoolDeps } from './deps.js';
import type { ActionDone } from './pupil-actions.js';

/**
 * How an action for pupils answers its form: a print with its PDF (the browser downloads it and stays on the
 * confirmation; what was done waits for the next page), anything else with a 303 back to `back`, where what
 * was done is said once.
 */
export function answer(deps: SchoolDeps, reply: FastifyReply, done: ActionDone, back: string): FastifyReply {
  area(deps).flash.set(reply, done.message);
  if (done.pdf) return sendAttachment(reply, 'application/pdf', done.pdf.filename, done.pdf.body);
  return seeOther(reply, back);
}
