import type { FastifyReply } from 'fastify';
import { StoreUnavailableError } from '../../errors.js';
import { errorPage } from '../error-page.js';
import { html, type Raw } from '../html.js';
import { sendHtml } from '../http.js';
import { busyText, countdown } from '../waits.js';
import type { AttemptOutcome } from './guarded-attempt.js';

/** What a page says when a guarded check is refused (each area in its own words). */
export interface AttemptWords {
  /** The check failed (one generic message whatever failed). */
  wrong: string;
  /** Checks from new devices are stopped for this account. */
  stopped: string;
  /** Said before the countdown of a wait: "Too many tries. Please wait". */
  tooManyTries: string;
}

/**
 * A refused guarded check (guarded-attempt.ts) answered as a page: failed → 401 with the generic message;
 * throttled → 429 with Retry-After and a countdown; stopped → 429; the machine saturated → 503 with
 * Retry-After; the store failing → 503. `retry` is the form again with a message, for the status.
 */
export function answerRefusedAttempt(
  reply: FastifyReply, outcome: Exclude<AttemptOutcome<unknown>, { ok: true }>, words: AttemptWords,
  retry: (status: number, message: string | Raw) => string,
): FastifyReply {
  switch (outcome.why) {
    case 'wrong':
      return sendHtml(reply, 401, retry(401, words.wrong));
    case 'stopped':
      return sendHtml(reply, 429, retry(429, words.stopped));
    case 'throttled':
      reply.header('Retry-After', String(outcome.retryAfterSeconds));
      return sendHtml(reply, 429, retry(429, html`${words.tooManyTries} ${countdown(outcome.retryAfterSeconds)}, then try again.`));
    case 'busy':
      reply.header('Retry-After', String(outcome.retryAfterSeconds));
      return sendHtml(reply, 503, retry(503, busyText(outcome.retryAfterSeconds)));
    case 'unavailable':
      reply.header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS));
      return sendHtml(reply, 503, errorPage('Sign-in is resting', 'Signing in is not possible for a moment. Please try again shortly.', 'temporarily_unavailable'));
  }
}
