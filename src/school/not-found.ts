import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../web/html.js';
import { sendHtml } from '../web/http.js';
import { layout } from '../web/layout.js';
import { area, SCHOOL_PATH, SIGN_IN_PATH } from './area.js';
import type { SchoolDeps } from './deps.js';
import { schoolLayout } from './views/school-layout.js';

const NOT_HERE = 'There is nothing at this address for you in the school console.';

/**
 * What the console says for an address nothing answers, and for anything of a school, class or person this
 * member of staff may not see (NotInSchoolError): the same 404 either way, inside the console's frame when
 * signed in, with the way back to their schools.
 */
export function schoolNotFoundPage(deps: SchoolDeps) {
  return async (req: FastifyRequest, reply: FastifyReply, message = NOT_HERE): Promise<FastifyReply> => {
    const session = await area(deps).sessions.current(req);
    reply.header('Cache-Control', 'no-store');
    if (session) {
      return sendHtml(reply, 404, schoolLayout('Not found', html`<h1>Not found</h1><p>${message}</p><p><a href="${SCHOOL_PATH}">Back to your schools</a></p>`,
        area(deps).signedInAs(session.account, session)));
    }
    return sendHtml(reply, 404, layout('Not found', html`<div class="card"><h1>Not found</h1><p>${message}</p>
<p><a class="button" href="${SIGN_IN_PATH}">Sign in to the school console</a></p></div>`));
  };
}
