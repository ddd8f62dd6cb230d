import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorPage } from '../web/error-page.js';
import { waitInWords } from '../web/waits.js';
import { sendUnavailable } from './error-handler.js';

/**
 * The answers of the rate limiter. At the authorization endpoint the limiter runs before oidc-provider has
 * validated client_id and redirect_uri, so it must never redirect to the app (RFC 6749 §4.1.2.1: no
 * redirect to an unverified redirect_uri; it would also make Lanyard an open redirector): a browser gets
 * Lanyard's friendly page, anything else the OAuth error body. The sign-in screens always get the page.
 */
const wantsPage = (req: FastifyRequest, page: boolean) => page || /\btext\/html\b/.test(req.headers.accept ?? '');

export const tooManyRequestsPage = (retryAfterSeconds: number) => errorPage(
  'Too many sign-ins at once',
  `Lots of sign-ins are coming from your network right now. Please wait ${waitInWords(retryAfterSeconds)}, then try again.`,
  'too_many_requests',
);

/** 429 with Retry-After (RFC 6585 §4). `temporarily_unavailable` is OAuth's word for an overloaded server. */
export function sendTooManyRequests(req: FastifyRequest, reply: FastifyReply, retryAfterSeconds: number, page: boolean) {
  reply.code(429).header('Retry-After', String(retryAfterSeconds)).header('Cache-Control', 'no-store');
  if (wantsPage(req, page)) return reply.type('text/html; charset=utf-8').send(tooManyRequestsPage(retryAfterSeconds));
  return reply.send({
    error: 'temporarily_unavailable',
    error_description: `too many requests from this network; try again in ${retryAfterSeconds} seconds`,
  });
}

/** The store failed while counting: the 503 every endpoint gives, as a page where one is wanted. */
export const sendStoreUnavailable = (req: FastifyRequest, reply: FastifyReply, page: boolean) =>
  sendUnavailable(req, reply, wantsPage(req, page));
