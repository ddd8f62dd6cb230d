import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Verdict } from '../../accounts/login-throttle.js';
import { StoreUnavailableError } from '../../errors.js';
import { errorPage } from '../../web/error-page.js';
import { html, type Raw } from '../../web/html.js';
import { busyText, countdown } from '../../web/waits.js';
import { LimiterBusyError } from '../../accounts/limiter.js';
import type { DeveloperDeps } from '../deps.js';
import { normaliseEmail, THROTTLE_SCOPE } from '../developer-accounts.js';
import { M } from './account-messages.js';
import { sendHtml } from '../../web/http.js';

type Refusal = Verdict & { allowed: false };

export interface DeveloperAttemptOptions<T> {
  scope: keyof typeof THROTTLE_SCOPE;
  /** The account's email as typed (an unknown email is counted exactly like a known one). */
  email: string;
  /** Checks the secret; undefined for any failure, whatever its cause. */
  verify: () => Promise<T | undefined>;
  /** The form again, with a message, for this status. */
  retry: (status: number, message: string | Raw) => string;
  /** False when a second step must follow: the device is not made known by the password alone. */
  final: (result: T) => boolean;
}

/**
 * One developer sign-in attempt through the same guessing protection as every other password sign-in
 * (src/accounts/login-throttle.ts, as interactions/attempt.ts uses it): counted before it is verified;
 * throttled → 429 with Retry-After; failed → 401 with one generic message whatever failed; the machine
 * saturated with sign-ins (verify() rejects with LimiterBusyError) → 503 with Retry-After, nothing counted;
 * the store failing → 503, never an unprotected check. Resolves to what verify() found, or undefined once answered.
 */
export async function attemptDeveloper<T>(deps: DeveloperDeps, req: FastifyRequest, reply: FastifyReply, o: DeveloperAttemptOptions<T>): Promise<T | undefined> {
  const log = { step: o.scope };
  const throttled = (v: Refusal) => {
    req.log.warn({ event: 'developer.sign_in_throttled', ...log, bucket: v.bucket, retryAfter: v.retryAfterSeconds, ...(v.stopped ? { stopped: true } : {}) }, 'developer sign-in throttled');
    if (v.stopped) {
      sendHtml(reply, 429, o.retry(429, M.signInStopped));
      return undefined;
    }
    reply.header('Retry-After', String(v.retryAfterSeconds));
    sendHtml(reply, 429, o.retry(429, html`${M.tooManyTries} ${countdown(v.retryAfterSeconds)}, then try again.`));
    return undefined;
  };
  try {
    const begun = await deps.throttle.begin({
      factor: 'password',
      organisationId: THROTTLE_SCOPE[o.scope],
      username: normaliseEmail(o.email),
      device: await deps.devices.source(req),
      ip: req.ip,
    });
    if (!begun.allowed) return throttled(begun);
    let found: T | undefined;
    try {
      found = await o.verify();
    } catch (err) {
      await deps.throttle.abort(begun.attempt);
      throw err;
    }
    await deps.throttle.end(begun.attempt, { ok: found !== undefined, final: found !== undefined && o.final(found) });
    if (found === undefined) {
      req.log.info({ event: 'developer.sign_in_failed', ...log }, 'developer sign-in failed');
      const after = await deps.throttle.recheck(begun.attempt);
      if (!after.allowed) return throttled(after);
      sendHtml(reply, 401, o.retry(401, o.scope === 'password' ? M.wrongPassword : M.wrongCode));
      return undefined;
    }
    return found;
  } catch (err) {
    if (err instanceof LimiterBusyError) {
      // The machine is saturated with sign-ins (argon2 slots): turned away like a pupil, nothing counted.
      req.log.warn({ event: 'developer.sign_in_busy', ...log, retryAfter: err.retryAfterSeconds }, 'developer sign-in turned away: the machine is saturated');
      reply.header('Retry-After', String(err.retryAfterSeconds));
      sendHtml(reply, 503, o.retry(503, busyText(err.retryAfterSeconds)));
      return undefined;
    }
    req.log.error({ event: 'developer.sign_in_unavailable', ...log, err }, 'sign-in protection unavailable: failing closed');
    reply.header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS));
    sendHtml(reply, 503, errorPage('Sign-in is resting', 'Signing in is not possible for a moment. Please try again shortly.', 'temporarily_unavailable'));
    return undefined;
  }
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
