import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionResults } from 'oidc-provider';
import type { User } from '../adapters/store.js';
import type { Attempt, DeviceKind, Factor, Verdict } from '../src/accounts/login-throttle.js';
import { LimiterBusyError } from '../src/accounts/limiter.js';
import { countedCheck } from '../src/accounts/counted-check.js';
import { StoreUnavailableError } from '../src/errors.js';
import { noteRequestEvent } from '../src/http/request-log.js';
import { failedSignInEvent, type SignInFacts, signInEvent } from './audit-sign-in.js';
import { finish, type InteractionDeps, sendHtml } from './context.js';
import { type LoginStep, sendRefused } from './login-step.js';
import { schoolRefusal } from '../src/clients/app-availability.js';
import { rememberSchool } from '../src/accounts/school-memory.js';
import { unavailablePage } from '../src/web/error-page.js';
import type { Raw } from '../src/web/html.js';
import type { Translator } from '../src/web/i18n/translator.js';
import { busyText, withWait } from '../src/web/waits.js';

type Refusal = Verdict & { allowed: false };

/** Who signed in, by which method, on what device (what completeLogin records in the audit trail). */
export interface SignedIn {
  user: User;
  /** password, emoji, badge, help_code. */
  method: string;
  device: DeviceKind;
}

export interface AttemptOptions {
  factor: Factor;
  /** The username as typed (absent for badges). */
  username?: string;
  /** Checks the secret; undefined for any failure, whatever its cause (unknown user, wrong secret, …). */
  verify: () => Promise<User | undefined>;
  /**
   * Re-renders the method's form with a message, with the given status; `wait`, the seconds to wait when
   * there is a wait to count down (429 throttled, 503 busy), for a screen that shows it as a picture.
   */
  retry: (status: number, message: string | Raw, wait?: number) => string;
  /**
   * Whether the person typed the username on this screen (the default when `username` is given): a wrong
   * secret then says to check it too. False where the username came from a tapped name tile.
   */
  usernameTyped?: boolean;
  /** False for a first factor that a second must follow: its success does not make the device known. */
  final?: boolean;
}

/**
 * One sign-in attempt through the guessing protection (counted before it is verified, so parallel guesses
 * cannot slip through together): throttled → 429 with Retry-After; failed → counted,
 * the same generic answer whatever failed; succeeded → the device is remembered. When the counters cannot
 * be read or written the attempt fails closed (503): low-entropy secrets are never checked unprotected.
 * When so many are signing in that the wait for argon2 would be too long, the person is asked to come back
 * (503 with Retry-After, the form again), and nothing is counted.
 * A refused or failed attempt goes into the school's audit trail once answered (recordFailure).
 * Resolves to who signed in, or undefined when the reply has been sent.
 */
export async function attemptSignIn(
  deps: InteractionDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  step: LoginStep,
  o: AttemptOptions,
): Promise<SignedIn | undefined> {
  const log = { method: o.factor, organisation: step.organisation.slug };
  const facts = (device: DeviceKind): SignInFacts => ({ organisationId: step.organisation.id, details: step.details, method: o.factor, device });
  const throttled = (v: Refusal) => {
    // The request's own line (and the sign-in metrics' `throttled`), at warn: a run of these is someone guessing.
    noteRequestEvent(reply.raw, req.log, { event: 'login.throttled', ...log, bucket: v.bucket, retryAfter: v.retryAfterSeconds, ...(v.stopped ? { stopped: true } : {}) }, 'login throttled', 'warn');
    if (v.stopped) {
      // Nothing changes until staff unlock it: no countdown to wait for (RFC 6585 §4: Retry-After is optional).
      sendHtml(reply, 429, o.retry(429, step.t.t('attempt.stopped')));
      return undefined;
    }
    reply.header('Retry-After', String(v.retryAfterSeconds));
    sendHtml(reply, 429, o.retry(429, withWait(step.t, 'attempt.tooMany', v.retryAfterSeconds), v.retryAfterSeconds));
    return undefined;
  };
  const busy = (retryAfterSeconds: number) => {
    noteRequestEvent(reply.raw, req.log, { event: 'login.busy', ...log, retryAfter: retryAfterSeconds }, 'sign-in turned away: the machine is saturated', 'warn');
    reply.header('Retry-After', String(retryAfterSeconds));
    sendHtml(reply, 503, o.retry(503, busyText(retryAfterSeconds, step.t), retryAfterSeconds));
    return undefined;
  };
  try {
    // Inside the try: reading the device's standing uses the store too, and fails closed like the rest.
    const trustedDeviceId = (await deps.devices.trusted(req, step.organisation.id))?.id;
    const attempt: Attempt = {
      factor: o.factor,
      organisationId: step.organisation.id,
      ...(o.username !== undefined ? { username: o.username } : {}),
      // A classroom device is its own source: its cookie need not be counted against the address.
      device: trustedDeviceId ? deps.devices.device(req) : await deps.devices.source(req),
      trustedDeviceId,
      ip: req.ip,
    };
    const checked = await countedCheck(deps.throttle, attempt, {
      verify: o.verify,
      final: () => o.final ?? true,
      username: (user) => user.username,
      onFailure: () => noteRequestEvent(reply.raw, req.log, { event: 'login.failed', ...log }, 'login failed'),
    });
    if (checked.outcome !== 'passed') {
      const result = checked.outcome === 'failed' ? 'wrong_credential' : checked.verdict.stopped ? 'locked' : 'throttled';
      const typed = o.username !== undefined && o.usernameTyped !== false;
      if (checked.outcome === 'failed') sendHtml(reply, 401, o.retry(401, failureText(step.t, o.factor, typed)));
      else throttled(checked.verdict);
      void recordFailure(deps, req, facts(checked.device), result, o.username);
      return undefined;
    }
    const user = checked.found;
    noteRequestEvent(reply.raw, req.log, { event: 'login.succeeded', ...log, accountId: user.id }, 'login succeeded');
    return { user, method: o.factor, device: checked.device };
  } catch (err) {
    if (err instanceof LimiterBusyError) return busy(err.retryAfterSeconds);
    req.log.error({ event: 'login.unavailable', ...log, err }, 'sign-in protection unavailable: failing closed');
    reply.header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS));
    // The store's unavailable page (docs/storage.md → When the store fails), in the screen's language.
    sendHtml(reply, 503, unavailablePage(step.t));
    return undefined;
  }
}

/**
 * A failed or refused attempt, in the school's audit trail: after the answer is sent (the person it names is
 * looked up by the username typed, which every failure then costs alike); never throws.
 */
async function recordFailure(deps: InteractionDeps, req: FastifyRequest, facts: SignInFacts, result: string, username?: string): Promise<void> {
  const at = deps.clock.now();
  const user = username ? await deps.store.findUserByUsername(facts.organisationId, username).catch(() => undefined) : undefined;
  deps.audit.record(await failedSignInEvent(deps.store, req, facts, { result, at, user }));
}

/**
 * Never says whether the user exists (Standards: generic login errors); asks to check the username only where
 * one was typed (not after a name tile or a badge: then only the pictures, or the code).
 */
function failureText(t: Translator, factor: Factor, usernameTyped: boolean): string {
  if (factor === 'badge') return t.t('attempt.wrong.badge');
  if (factor === 'emoji') return t.t(usernameTyped ? 'attempt.wrong.emoji' : 'attempt.wrong.emojiPictures');
  if (factor === 'help_code') return t.t(usernameTyped ? 'attempt.wrong.helpCode' : 'attempt.wrong.helpCodeTile');
  return t.t('attempt.wrong.password');
}

/**
 * Remembers when the user last signed in (`lanyard users list`, the leavers' report): once per sign-in that
 * succeeded, after every check. Only a record of the fact: when it cannot be written the person is still
 * signed in, and the failure is logged.
 */
async function recordSignIn(deps: InteractionDeps, req: FastifyRequest, user: User): Promise<void> {
  try {
    await deps.store.recordSignIn(user.id, deps.clock.now().toISOString());
  } catch (err) {
    req.log.warn({ event: 'login.sign_in_unrecorded', accountId: user.id, err }, 'the time of a sign-in could not be recorded');
  }
}

/**
 * Signs the user in: the interaction is finished and the browser goes back to the provider (303), and the
 * device remembers the school. Last, the app must be allowed to sign this user in
 * (src/clients/app-availability.ts): the organisation step already held a development app to the sandbox
 * school (and a live one away from it and from schools that do not use it), and this checks the user's
 * type against the school's connection and refuses anything that slipped past that step (defence in
 * depth), without finishing the interaction: no code is issued.
 */
export async function completeLogin(deps: InteractionDeps, req: FastifyRequest, reply: FastifyReply, step: LoginStep, signedIn: SignedIn, amr: string[]) {
  const { user } = signedIn;
  const facts: SignInFacts = { organisationId: user.organisationId, details: step.details, method: signedIn.method, device: signedIn.device };
  const refusal = await schoolRefusal(deps, step.availability, user.organisationId, user.type);
  if (refusal) {
    deps.audit.record(await failedSignInEvent(deps.store, req, facts, { result: refusal, at: deps.clock.now(), user }));
    const level = refusal === 'not_connected' ? 'info' : 'warn'; // a school's choice of user types, not a slip past the school step
    return sendRefused(deps, req, reply, step.details, step.clientName, refusal, { level, accountId: user.id, organisation: step.organisation });
  }
  if (user.organisationId !== step.availability.sandbox?.id) rememberSchool(req, reply, user.organisationId);
  await recordSignIn(deps, req, user);
  deps.audit.record(signInEvent(req, facts, user));
  // remember: false — a browser-session cookie, since classroom devices are shared.
  return finish(deps, req, reply, { login: { accountId: user.id, amr, remember: false } } satisfies InteractionResults);
}
