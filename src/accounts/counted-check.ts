import type { Attempt, DeviceKind, LoginThrottle, Verdict } from './login-throttle.js';

/**
 * What one counted check came to: refused (before verifying, or by the failure just counted), failed, or
 * passed; and what the device was to the account (for the audit trail).
 */
export type CountedCheck<T> = (
  | { outcome: 'throttled'; verdict: Verdict & { allowed: false } }
  | { outcome: 'failed' }
  | { outcome: 'passed'; found: T }
) & { device: DeviceKind };

export interface CountedCheckOptions<T> {
  /** Checks the secret: what it opens, or undefined for any failure, whatever its cause. */
  verify: () => Promise<T | undefined>;
  /** False when a second factor must follow: the source is not made known by this one alone. */
  final: (found: T) => boolean;
  /** The username to remember the device for, when the one typed is not it (a badge names none). */
  username?: (found: T) => string;
  /** Said of a failure, before the account's standing is read again (the caller's log line). */
  onFailure?: () => void;
}

/**
 * One secret checked through the guessing protection (src/accounts/login-throttle.ts), the same for every
 * sign-in — a pupil's (interactions/attempt.ts) and a signed-in area's (src/web/area/guarded-attempt.ts):
 * counted before it is verified, so parallel guesses cannot slip through together; a verification that throws
 * (the store, the machine saturated) counts nothing and the error goes up; the outcome counted; and after a
 * failure the account's standing read again, so the failure that brings a wait answers with that wait.
 * Errors of the counters go up too: callers fail closed.
 */
export async function countedCheck<T>(throttle: LoginThrottle, attempt: Attempt, o: CountedCheckOptions<T>): Promise<CountedCheck<T>> {
  const begun = await throttle.begin(attempt);
  if (!begun.allowed) {
    const { device, ...verdict } = begun;
    return { outcome: 'throttled', verdict, device };
  }
  const { device } = begun.attempt.plan;
  let found: T | undefined;
  try {
    found = await o.verify();
  } catch (err) {
    // Not a wrong secret: nothing is counted (a failing store must not push anyone towards the stop).
    await throttle.abort(begun.attempt);
    throw err;
  }
  if (found === undefined) {
    await throttle.end(begun.attempt, { ok: false });
    o.onFailure?.();
    const after = await throttle.recheck(begun.attempt);
    return after.allowed ? { outcome: 'failed', device } : { outcome: 'throttled', verdict: after, device };
  }
  await throttle.end(begun.attempt, { ok: true, ...(o.username ? { username: o.username(found) } : {}), final: o.final(found) });
  return { outcome: 'passed', found, device };
}
