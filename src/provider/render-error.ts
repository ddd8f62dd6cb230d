import type { FastifyBaseLogger } from 'fastify';
import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import { noteRequestEvent } from '../http/request-log.js';
import { errorPage, SCHOOL_APPS, unavailablePage } from '../web/error-page.js';

const MESSAGES: Record<string, string> = {
  invalid_client: 'This app is not registered with Lanyard. Tell your teacher, or whoever runs the app.',
  invalid_redirect_uri: 'This app asked to send you to an address it has not registered. Tell your teacher, or whoever runs the app.',
  invalid_request: 'The app sent a sign-in request Lanyard could not understand. Go back and try again.',
};

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
    const message = (redirectProblem ? MESSAGES.invalid_redirect_uri : MESSAGES[code])
      ?? 'Something went wrong while signing you in. Go back to the app and try again.';
    void error;
    ctx.type = 'html';
    ctx.body = code === 'temporarily_unavailable' ? unavailablePage() : errorPage('Cannot sign you in', message, code, SCHOOL_APPS);
  };
}
