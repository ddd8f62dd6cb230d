import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendUnavailableJson } from './json-errors.js';

/**
 * The answers of the rate limiter. Each group of limited requests declares how it answers (rate-limit.ts):
 * the sign-in screens always with a page; the authorization endpoint by what the caller accepts. There the
 * limiter runs before oidc-provider has validated client_id and redirect_uri, so it must never redirect to
 * the app (RFC 6749 §4.1.2.1: no redirect to an unverified redirect_uri; it would also make Lanyard an open
 * redirector): a browser gets Lanyard's friendly page, anything else the OAuth error body. The pages come
 * from the web layer (src/web/error-page.ts), handed in by the app.
 */
export type RateLimitAnswer = 'page' | 'negotiate';

export interface RateLimitPages {
  /** 429: too many requests from this network; wait this long (`req`: the page speaks the browser's language). */
  tooManyRequests(retryAfterSeconds: number, req: FastifyRequest): string;
  /** 503 with Retry-After: the store failed while counting (the answer every page gives then). */
  sendUnavailable(reply: FastifyReply, req: FastifyRequest): FastifyReply;
}

const wantsPage = (req: FastifyRequest, answer: RateLimitAnswer) => answer === 'page' || /\btext\/html\b/.test(req.headers.accept ?? '');

/** 429 with Retry-After (RFC 6585 §4). `temporarily_unavailable` is OAuth's word for an overloaded server. */
export function sendTooManyRequests(req: FastifyRequest, reply: FastifyReply, retryAfterSeconds: number, answer: RateLimitAnswer, pages: RateLimitPages) {
  reply.code(429).header('Retry-After', String(retryAfterSeconds)).header('Cache-Control', 'no-store');
  if (wantsPage(req, answer)) return reply.type('text/html; charset=utf-8').send(pages.tooManyRequests(retryAfterSeconds, req));
  return reply.send({
    error: 'temporarily_unavailable',
    error_description: `too many requests from this network; try again in ${retryAfterSeconds} seconds`,
  });
}

/** The store failed while counting: the 503 every endpoint gives, as a page where one is wanted. */
export function sendStoreUnavailable(req: FastifyRequest, reply: FastifyReply, answer: RateLimitAnswer, pages: RateLimitPages) {
  return wantsPage(req, answer) ? pages.sendUnavailable(reply, req) : sendUnavailableJson(reply);
}
