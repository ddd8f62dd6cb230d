import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorPage, SCHOOL_APPS, unavailablePage } from '../web/error-page.js';
import { isStoreUnavailable, StoreUnavailableError, UNAVAILABLE_BODY } from '../errors.js';
import { ROUTES } from '../routes.js';

/** The developer area's pages (/developer, /developer/…), not its JSON API (/developer/api/…). */
export const isDeveloperPage = (url: string) => /^\/developer(\/|\?|$)/.test(url) && !/^\/developer\/api(\/|\?|$)/.test(url);
/** Pages people see: an error there is a page too, never JSON and never a stack trace. */
const isPage = (url: string) => url.startsWith('/interaction/') || url.startsWith(ROUTES.logout) || url.startsWith(ROUTES.classroomDevice)
  || url.startsWith(ROUTES.authorization)
  || isDeveloperPage(url);

/**
 * "Try again in a moment": the answer to any store failure, on every endpoint (README → When the store
 * fails): a page where people look, else the OAuth error body.
 */
export function sendUnavailable(req: FastifyRequest, reply: FastifyReply, page = isPage(req.url)) {
  reply.code(503).header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS)).header('Cache-Control', 'no-store');
  if (page) {
    return reply.type('text/html; charset=utf-8').send(unavailablePage());
  }
  return reply.send(UNAVAILABLE_BODY);
}

/** A store failure caught by an error handler: logged (never as an error of Lanyard's), then sendUnavailable. */
export function answerStoreUnavailable(err: unknown, req: FastifyRequest, reply: FastifyReply, page?: boolean) {
  req.log.warn({ event: 'store.unavailable', err: (err as Error).cause ?? err }, 'store unavailable: answered 503');
  return sendUnavailable(req, reply, page);
}

/** Lanyard's error handler: set before any plugin registers (Fastify gives each plugin the one then in force). */
export function errorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: { statusCode?: number; message: string }, req, reply) => {
    if (isStoreUnavailable(err)) return answerStoreUnavailable(err, req, reply);
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, 'unhandled error');
    if (isPage(req.url)) {
      return reply.code(status).type('text/html; charset=utf-8').send(status === 500
        ? errorPage('Something went wrong', 'Lanyard could not finish this step. Start again from the app, or from your school apps.', 'server_error', SCHOOL_APPS)
        : errorPage('That did not work', 'The form could not be read. Start again from the app, or from your school apps.', 'invalid_request', SCHOOL_APPS));
    }
    return reply.code(status).send({
      error: status === 500 ? 'server_error' : 'invalid_request',
      error_description: status === 500 ? 'internal error' : err.message,
    });
  });
}

/**
 * A request the HTTP parser cannot read (bad characters in the request line, a broken header, a timeout)
 * never reaches a route; the answer is written to the socket by hand, which is then closed. Fastify's
 * default writes a JSON body there, which corrupts the stream when the request was a HEAD (a HEAD
 * response has no body, RFC 9110 §9.3.2) and cannot tell one from another. So, as Node's own default does:
 * a status line, no body, `Connection: close`, and nothing at all when a response has already begun on this
 * connection (its bytes would be mixed with ours).
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  this.log.debug({ event: 'http.client_error', code: err.code, statusCode: status }, 'unreadable request');
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  }
  socket.destroy(err);
}
