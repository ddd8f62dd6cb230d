import type { FastifyRequest } from 'fastify';
import { countedCheck } from '../accounts/counted-check.js';
import { LimiterBusyError } from '../accounts/limiter.js';
import { type DeveloperDeps } from './deps.js';
import { normaliseEmail, THROTTLE_SCOPE } from './developer-accounts.js';

/** What one guarded check came to; `found` when it passed, else why not and the status that says so. */
export type AttemptOutcome<T> =
  | { ok: true; found: T }
  | { ok: false; why: 'wrong'; status: 401 }
  | { ok: false; why: 'throttled'; status: 429; retryAfterSeconds: number }
  | { ok: false; why: 'stopped'; status: 429 }
  | { ok: false; why: 'busy'; status: 503; retryAfterSeconds: number }
  | { ok: false; why: 'unavailable'; status: 503 };

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
 * One check of a developer's password or code through the same guessing protection as every other password
 * sign-in (src/accounts/login-throttle.ts, as interactions/attempt.ts uses it): counted before it is verified;
 * throttled → 429; failed → 401 whatever failed; the machine saturated with sign-ins (verify() rejects with
 * LimiterBusyError) → 503, nothing counted; the store failing → 503, never an unprotected check. The pages and
 * the JSON API each answer the outcome in their own form (pages/account-attempt.ts, api/reauthentication.ts).
 */
export async function guardedAttempt<T>(deps: DeveloperDeps, req: FastifyRequest, o: GuardedAttempt<T>): Promise<AttemptOutcome<T>> {
  const log = { step: o.scope };
  const throttled = (v: { bucket: string; retryAfterSeconds: number; stopped?: boolean }): AttemptOutcome<T> => {
    req.log.warn({ event: 'developer.sign_in_throttled', ...log, bucket: v.bucket, retryAfter: v.retryAfterSeconds, ...(v.stopped ? { stopped: true } : {}) }, 'developer sign-in throttled');
    return v.stopped ? { ok: false, why: 'stopped', status: 429 } : { ok: false, why: 'throttled', status: 429, retryAfterSeconds: v.retryAfterSeconds };
  };
  try {
    const checked = await countedCheck(deps.throttle, {
      factor: 'password',
      organisationId: THROTTLE_SCOPE[o.scope],
      username: normaliseEmail(o.email),
      device: await deps.devices.source(req),
      ip: req.ip,
    }, {
      verify: o.verify,
      final: o.final,
      onFailure: () => req.log.info({ event: 'developer.sign_in_failed', ...log }, 'developer sign-in failed'),
    });
    if (checked.outcome === 'throttled') return throttled(checked.verdict);
    if (checked.outcome === 'failed') return { ok: false, why: 'wrong', status: 401 };
    return { ok: true, found: checked.found };
  } catch (err) {
    if (err instanceof LimiterBusyError) {
      // The machine is saturated with sign-ins (argon2 slots): turned away like a pupil, nothing counted.
      req.log.warn({ event: 'developer.sign_in_busy', ...log, retryAfter: err.retryAfterSeconds }, 'developer sign-in turned away: the machine is saturated');
      return { ok: false, why: 'busy', status: 503, retryAfterSeconds: err.retryAfterSeconds };
    }
    req.log.error({ event: 'developer.sign_in_unavailable', ...log, err }, 'sign-in protection unavailable: failing closed');
    return { ok: false, why: 'unavailable', status: 503 };
  }
}
