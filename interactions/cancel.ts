import type { FastifyInstance } from 'fastify';
import { csrfValid } from '../src/web/csrf.js';
import { finish, type InteractionDeps, loadInteraction, sendHtml } from './context.js';
import { errorPage, SCHOOL_APPS } from '../src/web/error-page.js';

/** POST /interaction/:uid/cancel — "cancel" returns error=access_denied to the app. */
export function cancelRoute(app: FastifyInstance, deps: InteractionDeps): void {
  app.post<{ Params: { uid: string }; Body: { csrf?: string } }>('/:uid/cancel', async (req, reply) => {
    const details = await loadInteraction(deps, req, reply);
    if (!details) return reply;
    if (!csrfValid(deps.cookieKeys, details.uid, (req.body as { csrf?: string } | undefined)?.csrf)) {
      return sendHtml(reply, 403, errorPage('Cannot cancel', 'This form has expired. Start again from the app, or from your school apps.', 'invalid_form', SCHOOL_APPS));
    }
    return finish(deps, req, reply, { error: 'access_denied', error_description: 'End-User aborted interaction' });
  });
}
