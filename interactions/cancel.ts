import type { FastifyInstance } from 'fastify';
import { csrfValid } from '../src/web/csrf.js';
import { finish, type InteractionDeps, loadInteraction, sendHtml } from './context.js';
import { errorPage, schoolApps } from '../src/web/error-page.js';
import { translatorFor } from '../src/web/i18n/choose-locale.js';

/** POST /interaction/:uid/cancel — "cancel" returns error=access_denied to the app. */
export function cancelRoute(app: FastifyInstance, deps: InteractionDeps): void {
  app.post<{ Params: { uid: string }; Body: { csrf?: string } }>('/:uid/cancel', async (req, reply) => {
    const details = await loadInteraction(deps, req, reply);
    if (!details) return reply;
    if (!csrfValid(deps.cookieKeys, details.uid, (req.body as { csrf?: string } | undefined)?.csrf)) {
      const t = translatorFor(req);
      return sendHtml(reply, 403, errorPage(t.t('errors.cannotCancel'), t.t('errors.formExpired'), 'invalid_form', schoolApps(t), undefined, t));
    }
    return finish(deps, req, reply, { error: 'access_denied', error_description: 'End-User aborted interaction' });
  });
}
