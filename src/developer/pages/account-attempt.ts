import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerRefusedAttempt } from '../../web/area/attempt-page.js';
import type { Raw } from '../../web/html.js';
import type { DeveloperDeps } from '../deps.js';
import { normaliseEmail, THROTTLE_SCOPE } from '../developer-accounts.js';
import { type GuardedAttempt, guardedAttempt } from '../guarded-attempt.js';
import { M } from './account-messages.js';

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
  answerRefusedAttempt(reply, outcome, {
    wrong: o.scope === 'password' ? M.wrongPassword : M.wrongCode, stopped: M.signInStopped, tooManyTries: M.tooManyTries,
  }, o.retry);
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
