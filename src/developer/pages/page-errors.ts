import type { FastifyInstance } from 'fastify';
import { isStoreUnavailable, LanyardError } from '../../errors.js';
import { answerStoreUnavailable } from '../../http/error-handler.js';
import { errorPage } from '../../web/error-page.js';
import { sendHtml } from '../../web/http.js';

/**
 * Errors on the developer area's pages: always a page. A LanyardError that may be shown (expose) shows its
 * message with its status; anything else is "Something went wrong" (logged), never a stack trace.
 * Fastify's own 4xx (an unreadable form) says the form could not be read.
 */
export function pageErrorHandler(scope: FastifyInstance): void {
  scope.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    if (isStoreUnavailable(err)) return answerStoreUnavailable(err, req, reply, true);
    if (err instanceof LanyardError && err.expose) {
      return sendHtml(reply, err.statusCode, errorPage(err.statusCode === 404 ? 'Not found' : 'That did not work', err.message, err.code));
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      req.log.error({ err }, 'unhandled error');
      return sendHtml(reply, 500, errorPage('Something went wrong', 'Lanyard could not finish this. Please try again.', 'server_error'));
    }
    return sendHtml(reply, status, errorPage('That did not work', 'The form could not be read. Go back and try again.', 'invalid_request'));
  });
}
