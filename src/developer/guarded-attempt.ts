import type { FastifyRequest } from 'fastify';
import { type AttemptOutcome, guardedAttempt as areaGuardedAttempt } from '../web/area/guarded-attempt.js';
import { type DeveloperDeps } from './deps.js';
import { normaliseEmail, THROTTLE_SCOPE } from './developer-accounts.js';

export type { AttemptOutcome };

export interface GuardedAttempt<T> {
  scope: keyof typeof THROTTLE_SCOPE;
  /** The account's email as typed (an unknown email is counted exactly like a known one). */
  email: string;
  /** Checks the secret; undefined for any failure, whatever its cause. */
  verify: () => Promise<T | undefined>;
  /** False when a second step must follow: the device is not made known by the password alone. */
  final: (result: T) => boolean;
}

/**
 * One check of a developer's password or code through the signed-in areas' guessing protection
 * (src/web/area/guarded-attempt.ts): the password and the second step each count under their own scope
 * (THROTTLE_SCOPE), by the email lower-cased. The pages and the JSON API each answer the outcome in their own
 * form (pages/account-attempt.ts, api/reauthentication.ts).
 */
export function guardedAttempt<T>(deps: DeveloperDeps, req: FastifyRequest, o: GuardedAttempt<T>): Promise<AttemptOutcome<T>> {
  return areaGuardedAttempt(deps, req, {
    area: 'developer', step: o.scope, organisationId: THROTTLE_SCOPE[o.scope], username: normaliseEmail(o.email), verify: o.verify, final: o.final,
  });
}
