import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../adapters/store.js';
import { answerRefusedAttempt } from '../web/area/attempt-page.js';
import { type AttemptOutcome, guardedAttempt } from '../web/area/guarded-attempt.js';
import type { Raw } from '../web/html.js';
import { M } from './account/account-messages.js';
import type { SchoolDeps } from './deps.js';
import { STAFF_THROTTLE_SCOPE } from './throttle-scope.js';


export type StaffStep = keyof typeof STAFF_THROTTLE_SCOPE;

/** One check of a member of staff's password or code through the guessing protection (src/web/area/guarded-attempt.ts), in its scope (throttle-scope.ts). */
export function staffAttempt<T>(deps: SchoolDeps, req: FastifyRequest, user: Pick<User, 'id'>, step: StaffStep, verify: () => Promise<T | undefined>): Promise<AttemptOutcome<T>> {
  return guardedAttempt(deps, req, { area: 'school', step, organisationId: STAFF_THROTTLE_SCOPE[step], username: user.id, verify, final: () => true });
}

/**
 * The same, answered as a page when refused (401 with one generic message, 429 with the wait, 503): `retry` is
 * the form again with the message. What verify() found, or undefined once answered.
 */
export async function staffAttemptPage<T>(
  deps: SchoolDeps, req: FastifyRequest, reply: FastifyReply, user: Pick<User, 'id'>, step: StaffStep,
  verify: () => Promise<T | undefined>, retry: (status: number, message: string | Raw) => string,
): Promise<T | undefined> {
  const outcome = await staffAttempt(deps, req, user, step, verify);
  if (outcome.ok) return outcome.found;
  answerRefusedAttempt(reply, outcome, { wrong: step === 'password' ? M.wrongPassword : M.wrongCode, stopped: M.stopped, tooManyTries: M.tooManyTries }, retry);
  return undefined;
}
