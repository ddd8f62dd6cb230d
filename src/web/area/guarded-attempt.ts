import type { FastifyRequest } from 'fastify';
import { countedCheck } from '../../accounts/counted-check.js';
import type { DeviceCookies } from '../../accounts/device-cookies.js';
import { LimiterBusyError } from '../../accounts/limiter.js';
import type { LoginThrottle } from '../../accounts/login-throttle.js';

/** What one guarded check came to; `found` when it passed, else why not and the status that says so. */
export type AttemptOutcome<T> =
  | { ok: true; found: T }
  | { ok: false; why: 'wrong'; status: 401 }
  | { ok: false; why: 'throttled'; status: 429; retryAfterSeconds: number }
  | { ok: false; why: 'stopped'; status: 429 }
  | { ok: false; why: 'busy'; status: 503; retryAfterSeconds: number }
  | { ok: false; why: 'unavailable'; status: 503 };

export interface GuardedCheck<T> {
  /** The area, for the log lines' events (`<area>.sign_in_failed`, …). */
  area: string;
  /** Which step is checked (`password`, `secondFactor`), for the log lines. */
  step: string;
  /**
   * The guessing protection's "organisation": each area's password and second step count apart from each
   * other and from every school's sign-ins (each has its own waits and its own stop).
   */
  organisationId: string;
  /** The account as the protection counts it (an unknown one is counted exactly like a known one). */
  username: string;
  /** Checks the secret; undefined for any failure, whatever its cause. */
  verify: () => Promise<T | undefined>;
  /** False when a second step must follow: the device is not made known by this check alone. */
  final: (result: T) => boolean;
}

/**
 * One check of a password or code in a signed-in area, through the same guessing protection as every other
 * sign-in (src/accounts/login-throttle.ts, as interactions/attempt.ts uses it): counted before it is verified;
 * throttled → 429; failed → 401 whatever failed; the machine saturated with sign-ins (verify() rejects with
 * LimiterBusyError) → 503, nothing counted; the store failing → 503, never an unprotected check. Pages and
 * JSON APIs each answer the outcome in their own form (attempt-page.ts for pages).
 */
export async function guardedAttempt<T>(
  deps: { throttle: LoginThrottle; devices: DeviceCookies }, req: FastifyRequest, o: GuardedCheck<T>,
): Promise<AttemptOutcome<T>> {
  const log = { step: o.step };
  const throttled = (v: { bucket: string; retryAfterSeconds: number; stopped?: boolean }): AttemptOutcome<T> => {
    req.log.warn({ event: `${o.area}.sign_in_throttled`, ...log, bucket: v.bucket, retryAfter: v.retryAfterSeconds, ...(v.stopped ? { stopped: true } : {}) }, `${o.area} sign-in throttled`);
    return v.stopped ? { ok: false, why: 'stopped', status: 429 } : { ok: false, why: 'throttled', status: 429, retryAfterSeconds: v.retryAfterSeconds };
  };
  try {
    const checked = await countedCheck(deps.throttle, {
      factor: 'password',
      organisationId: o.organisationId,
      username: o.username,
      device: await deps.devices.source(req),
      ip: req.ip,
    }, {
      verify: o.verify,
      final: o.final,
      onFailure: () => req.log.info({ event: `${o.area}.sign_in_failed`, ...log }, `${o.area} sign-in failed`),
    });
    if (checked.outcome === 'throttled') return throttled(checked.verdict);
    if (checked.outcome === 'failed') return { ok: false, why: 'wrong', status: 401 };
    return { ok: true, found: checked.found };
  } catch (err) {
    if (err instanceof LimiterBusyError) {
      // The machine is saturated with sign-ins (argon2 slots): turned away like a pupil, nothing counted.
      req.log.warn({ event: `${o.area}.sign_in_busy`, ...log, retryAfter: err.retryAfterSeconds }, `${o.area} sign-in turned away: the machine is saturated`);
      return { ok: false, why: 'busy', status: 503, retryAfterSeconds: err.retryAfterSeconds };
    }
    req.log.error({ event: `${o.area}.sign_in_unavailable`, ...log, err }, 'sign-in protection unavailable: failing closed');
    return { ok: false, why: 'unavailable', status: 503 };
  }
}
