import type { FastifyBaseLogger } from 'fastify';
import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import { noteRequestEvent } from '../http/request-log.js';
import { errorPage, schoolApps, unavailablePage } from '../web/error-page.js';
import { pickLocale } from '../web/i18n/choose-locale.js';
import { type Translator, translator } from '../web/i18n/translator.js';
import type { MessageKey } from '../web/messages/catalogue.js';

const MESSAGES: Record<string, MessageKey> = {
  invalid_client: 'errors.app.unregistered',
  invalid_redirect_uri: 'errors.app.badAddress',
  invalid_request: 'errors.app.badRequest',
};

/**
 * A provider page's language, as a pupil's page picks it: the switch's, or the browser's (no school is known
 * here). These pages have no switch: their address carries the app's parameters (a redirect_uri that is the
 * error itself), which a page must not link to again.
 */
export const providerPageLanguage = (ctx: Pick<KoaContextWithOIDC, 'query' | 'get'>): Translator =>
  translator(pickLocale({ asked: ctx.query.lang, cookie: ctx.get('cookie') || undefined, acceptLanguage: ctx.get('accept-language') || undefined }));

/**
 * oidc-provider's HTML error page, for errors it cannot redirect to the app (unknown client, unregistered
 * redirect_uri, …): friendly text, the error code, no details that help an attacker, never a redirect.
 */
export function renderErrorPage(log: FastifyBaseLogger) {
  return async (ctx: KoaContextWithOIDC, out: ErrorOut, error: unknown) => {
    // The request's line (unless oidc-provider's authorization.error already gave it its event: then one of its own).
    noteRequestEvent(ctx.res, log, { event: 'authorize.rejected', error: out.error, description: out.error_description }, 'authorization request rejected');
    const code = String(out.error ?? 'server_error');
    const description = String(out.error_description ?? '');
    const redirectProblem = /redirect_uri/.test(description);
    // A pupil may land here from an app's link: the page speaks the browser's language (or the switch's).
    const t = providerPageLanguage(ctx);
    const message = t.t((redirectProblem ? MESSAGES.invalid_redirect_uri : MESSAGES[code]) ?? 'errors.app.other');
    void error;
    ctx.type = 'html';
    ctx.body = code === 'temporarily_unavailable' ? unavailablePage(t) : errorPage(t.t('errors.cannotSignIn'), message, code, schoolApps(t), undefined, t);
  };
}
