import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { isStoreUnavailable, LanyardError, StoreUnavailableError } from '../errors.js';
import { logStoreUnavailable } from '../http/json-errors.js';
import { errorPage, SCHOOL_APPS, unavailablePage, type WayOn } from './error-page.js';
import { sendHtml } from './http.js';

/**
 * How a group of routes that people see says no: always a page, never JSON and never a stack trace
 * (docs/architecture.md → Errors). Each group registers it on its own scope (pageErrors) with its own words
 * for the way on — the sign-in screens, logout and the classroom-device page send people back to their
 * school apps; the developer area back a page.
 */

/** Any store failure, wherever a person sees it: "try again in a moment", 503 with Retry-After. */
export function sendUnavailablePage(reply: FastifyReply): FastifyReply {
  reply.header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS));
  return sendHtml(reply, 503, unavailablePage());
}

export interface PageErrorOptions {
  /** What a 500 says. */
  serverError: string;
  /** What Fastify's own 4xx (an unreadable form) says. */
  unreadable: string;
  /** The way on every error page of the group offers, if any. */
  wayOn?: WayOn | undefined;
}

/** The pages pupils and staff see (sign-in screens, logout, the classroom-device page, the dashboard): start again, from the app or the school apps. */
export const SCHOOL_PAGES: PageErrorOptions = {
  serverError: 'Lanyard could not finish this step. Start again from the app, or from your school apps.',
  unreadable: 'The form could not be read. Start again from the app, or from your school apps.',
  wayOn: SCHOOL_APPS,
};

/**
 * The scope's error handler: the store failing → 503 page; a LanyardError that may be shown → its message
 * with its status; Fastify's own 4xx (an unreadable form) → "That did not work"; anything else → 500, logged.
 */
export function pageErrors(scope: FastifyInstance, o: PageErrorOptions): void {
  scope.setErrorHandler((err: FastifyError, req, reply) => {
    if (isStoreUnavailable(err)) {
      logStoreUnavailable(err, req);
      return sendUnavailablePage(reply);
    }
    if (err instanceof LanyardError && err.expose && err.statusCode >= 400 && err.statusCode < 500) {
      return sendHtml(reply, err.statusCode, errorPage(err.statusCode === 404 ? 'Not found' : 'That did not work', err.message, err.code, o.wayOn));
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      req.log.error({ err }, 'unhandled error');
      return sendHtml(reply, 500, errorPage('Something went wrong', o.serverError, 'server_error', o.wayOn));
    }
    return sendHtml(reply, status, errorPage('That did not work', o.unreadable, 'invalid_request', o.wayOn));
  });
}
