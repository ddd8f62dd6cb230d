import type { FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailableError } from '../../errors.js';
import { errorPage } from '../../web/error-page.js';
import { html, type Raw } from '../../web/html.js';
import { busyText, countdown } from '../../web/waits.js';
import type { DeveloperDeps } from '../deps.js';
import { normaliseEmail, THROTTLE_SCOPE } from '../developer-accounts.js';
import { type GuardedAttempt, guardedAttempt } from '../guarded-attempt.js';
import { M } from './account-messages.js';
import { sendHtml } from '../../web/http.js';

export interface DeveloperAttemptOptions<T> extends GuardedAttempt<T> {
  /** The form again, with a message, for this status. */
  retry: (status: number, message: string | Raw) => string;
}

/**
 * One developer sign-in attempt (or a check of the password or code again) through the guessing protection
 * (../guarded-attempt.ts), answered as a page: throttled → 429 with Retry-After; failed → 401 with one generic
 * message whatever failed; the machine saturated → 503 with Retry-After; the store failing → 503. Resolves to
 * what verify() found, or undefined once answered.
 */
export async function attemptDeveloper<T>(deps: DeveloperDeps, req: FastifyRequest, reply: FastifyReply, o: DeveloperAttemptOptions<T>): Promise<T | undefined> {
  const outcome = await guardedAttempt(deps, req, o);
  if (outcome.ok) return outcome.found;
  switch (outcome.why) {
    case 'wrong':
      sendHtml(reply, 401, o.retry(401, o.scope === 'password' ? M.wrongPassword : M.wrongCode));
      break;
    case 'stopped':
      sendHtml(reply, 429, o.retry(429, M.signInStopped));
      break;
    case 'throttled':
      reply.header('Retry-After', String(outcome.retryAfterSeconds));
      sendHtml(reply, 429, o.retry(429, html`${M.tooManyTries} ${countdown(outcome.retryAfterSeconds)}, then try again.`));
      break;
    case 'busy':
      reply.header('Retry-After', String(outcome.retryAfterSeconds));
      sendHtml(reply, 503, o.retry(503, busyText(outcome.retryAfterSeconds)));
      break;
    case 'unavailable':
      reply.header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS));
      sendHtml(reply, 503, errorPage('Sign-in is resting', 'Signing in is not possible for a moment. Please try again shortly.', 'temporarily_unavailable'));
      break;
  }
  return undefined;
}

/**
 * After the second step succeeds, the password's success counts in full too (it was held back as not
 * final): the device becomes known for the account's password, so a stranger's run of wrong passwords, which
 * stops sign-in from new devices, never locks out a developer on a device they have signed in on. Refused or
 * failing quietly: the sign-in itself is already complete.
 */
export async function confirmFirstFactor(deps: DeveloperDeps, req: FastifyRequest, email: string): Promise<void> {
  try {
    const begun = await deps.throttle.begin({
      factor: 'password', organisationId: THROTTLE_SCOPE.password, username: normaliseEmail(email), device: deps.devices.device(req), ip: req.ip,
    });
    if (begun.allowed) await deps.throttle.end(begun.attempt, { ok: true, final: true });
  } catch (err) {
    req.log.warn({ event: 'developer.device_not_remembered', err }, 'could not remember the device for the password');
  }
}
