import type { Counters, Locks } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { AttemptLocks } from './attempt-lock.js';
import { backoffSeconds, DEFAULT_THROTTLE_POLICY, type ThrottlePolicy } from './throttle-policy.js';

export { DEFAULT_THROTTLE_POLICY, throttlePolicy, type ThrottlePolicy } from './throttle-policy.js';

/**
 * Guessing protection for low-entropy sign-in secrets (emoji passwords, passwords, help codes) and badge codes, built
 * on two promises (docs/security.md → Sign-in protection; the numbers are in throttle-policy.ts):
 * - guessing stays hopeless: the unknown-device path of an account stops after 100 consecutive failures
 *   (NIST SP 800-63B §5.2.2) until staff unlock it, and each known or trusted device waits up to an hour;
 * - denial stays bounded: every wait and budget belongs to one *source*, so an attacker slows only
 *   themselves. A known device (one that has signed in to the account) or a trusted classroom device has a
 *   bucket per account; an unknown device waits per account and source (a signed device cookie, or the IP
 *   address without one), briefly; budgets across accounts are per source. No IP or organisation budget
 *   ever applies to a known or trusted device.
 * Accounts are keyed by the username as typed (normalised), so an unknown user is throttled exactly like a
 * real one. Every counter lives in the store (all instances count alike); any store error propagates, and
 * callers fail closed.
 */
export type Factor = 'password' | 'emoji' | 'badge' | 'help_code';

export interface Attempt {
  factor: Factor;
  organisationId: string;
  /** The username as typed; absent for badges. */
  username?: string;
  /** The browser's device cookie; `signed` when Lanyard minted it (older cookies are bare ids). */
  device?: { id: string; signed: boolean } | undefined;
  /** The id of a trusted classroom device of this organisation, already verified. */
  trustedDeviceId?: string | undefined;
  ip: string;
}

/**
 * What the device signing in is to the account, as the plan found it: a trusted classroom device of the
 * school, one the account has signed in on before (known), or any other (docs/security.md → Sign-in protection).
 */
export type DeviceKind = 'classroom' | 'known' | 'other';

export type Verdict =
  | { allowed: true }
  | { allowed: false; retryAfterSeconds: number; bucket: string; /** Stopped until staff unlock it. */ stopped?: boolean };
type Refusal = Verdict & { allowed: false };

/** An attempt under way: what begin() counted, for end(). */
export interface AttemptTicket {
  attempt: Attempt;
  plan: Plan;
  /** Budget hits counted in advance: [key, the time of the hit before]. */
  reserved: [string, number | undefined][];
  unlock: () => void;
}

interface Backoff { key: string; free: number; base: number; max: number }
interface Plan {
  device: DeviceKind;
  /** Attempts on this key take turns. */
  lockKey: string | undefined;
  /** The per-account wait buckets. */
  backoffs: Backoff[];
  /** The unknown-device path's consecutive-failure counter. */
  cap: string | undefined;
  /** Per-source budgets: [key, failures allowed per window]. */
  budgets: [string, number][];
}

const DAY = 24 * 60 * 60;
/** How long an account bucket stays counted, a device stays known, and the cap counts. */
const BACKOFF_WINDOW_SECONDS = DAY;
const KNOWN_DEVICE_SECONDS = 180 * DAY;
const LONG_SECONDS = 400 * DAY;
/** A success restarts the unknown-device count at most once in this time (else guesses would be unbounded). */
const CAP_RESET_SECONDS = DAY;
/** Returned with a stopped path: nothing will change until staff act, but clients want a number. */
const STOPPED_RETRY_SECONDS = 60 * 60;

const norm = (username: string) => username.trim().toLowerCase();

export class LoginThrottle {
  readonly #locks: AttemptLocks;

  constructor(
    private readonly counters: Counters & Locks,
    private readonly clock: Clock,
    readonly policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY,
  ) {
    this.#locks = new AttemptLocks(counters);
  }

  /** Whose counters an account's buckets are: changes when staff unlock the account. */
  async #accountBase(a: Attempt): Promise<string> {
    // The time of the last unlock (each unlock restarts the counter, so its window never strands an epoch).
    const epoch = (await this.counters.peekCounter(epochKey(a.organisationId, a.username!)))?.lastAt ?? 0;
    return `${a.factor}:${a.organisationId}:${norm(a.username!)}#${epoch}`;
  }

  async #known(a: Attempt): Promise<boolean> {
    if (!a.device || !a.username) return false;
    return (await this.counters.peekCounter(knownKey(a))) !== undefined;
  }

  async #plan(a: Attempt): Promise<Plan> {
    const p = this.policy;
    const source = sourceOf(a);
    if (a.factor === 'badge' || !a.username) {
      // An unknown badge code cannot target an account: it counts against its source only.
      return {
        device: a.trustedDeviceId ? 'classroom' : 'other', lockKey: undefined, backoffs: [], cap: undefined, budgets: [[`badge:${source}`, p.badgeFailures]],
      };
    }
    const base = await this.#accountBase(a);
    if (a.trustedDeviceId) {
      // Each classroom device has its own count, and all of them together share one per account, so a
      // trolley of thirty tablets gives no more guesses at a classmate than a few would.
      const own = `account:${base}:trusted:${a.trustedDeviceId}`;
      const shared = `account:${base}:trusted-devices`;
      return {
        device: 'classroom',
        lockKey: shared,
        backoffs: [
          { key: own, free: p.freeAttempts, base: p.baseWaitSeconds, max: p.maxWaitSeconds },
          { key: shared, free: p.trustedDevicesFreeAttempts, base: p.baseWaitSeconds, max: p.trustedDevicesMaxWaitSeconds },
        ],
        cap: undefined,
        budgets: [],
      };
    }
    if (await this.#known(a)) {
      const key = `account:${base}:device:${a.device!.id}`;
      return { device: 'known', lockKey: key, backoffs: [{ key, free: p.freeAttempts, base: p.baseWaitSeconds, max: p.maxWaitSeconds }], cap: undefined, budgets: [] };
    }
    const cap = `cap:${base}`;
    return {
      device: 'other',
      lockKey: cap,
      backoffs: [{ key: `account:${base}:${source}`, free: p.newDeviceFreeAttempts, base: p.newDeviceBaseWaitSeconds, max: p.newDeviceMaxWaitSeconds }],
      cap,
      budgets: [[`source:${source}`, a.device?.signed ? p.deviceFailures : p.ipFailures]],
    };
  }

  /** May this attempt be verified now? (Counts nothing.) */
  async check(a: Attempt): Promise<Verdict> {
    return this.#verdict(await this.#plan(a));
  }

  /** May the next attempt like this ended one be verified now? (Its buckets are already known.) */
  recheck(ticket: AttemptTicket): Promise<Verdict> {
    return this.#verdict(ticket.plan);
  }

  async #verdict(plan: Plan): Promise<Verdict> {
    const refusal = new Worst();
    await this.#checkAccount(plan, refusal);
    for (const [key, limit] of plan.budgets) {
      const c = await this.counters.peekCounter(key);
      if (c && c.count >= limit) refusal.add(this.#untilWindowEnds(c.expiresAt), key);
    }
    return refusal.verdict;
  }

  async #checkAccount(plan: Plan, refusal: Worst): Promise<void> {
    const now = this.clock.now().getTime();
    if (plan.cap) {
      const c = await this.counters.peekCounter(plan.cap);
      if (c && c.count >= this.policy.newDeviceFailureCap) refusal.add(STOPPED_RETRY_SECONDS, plan.cap, true);
    }
    for (const { key, free, base, max } of plan.backoffs) {
      const c = await this.counters.peekCounter(key);
      if (c) refusal.add(Math.ceil((c.lastAt + backoffSeconds(c.count, free, base, max) * 1000 - now) / 1000), key);
    }
  }

  #untilWindowEnds = (expiresAt: number) => Math.max(1, Math.ceil((expiresAt - this.clock.now().getTime()) / 1000));

  /**
   * Starts an attempt; end() must follow. Parallel attempts must not slip through together, so attempts on
   * one account bucket take turns (each is checked, verified and recorded before the next is checked: a
   * burst of guesses stops after the free attempts, while a burst of right answers — a class on one shared
   * account — all go through), and per-source budgets are counted first and only then checked (atomic in
   * the store); the hit is taken back when the attempt succeeds or is refused.
   */
  async begin(a: Attempt): Promise<{ allowed: true; attempt: AttemptTicket } | (Refusal & { device: DeviceKind })> {
    const plan = await this.#plan(a);
    const unlock = plan.lockKey ? await this.#locks.acquire(plan.lockKey) : () => {};
    const reserved: [string, number | undefined][] = [];
    try {
      const refusal = new Worst();
      await this.#checkAccount(plan, refusal);
      if (refusal.verdict.allowed) {
        for (const [key, limit] of plan.budgets) {
          const c = await this.counters.hitCounter(key, this.policy.windowSeconds);
          reserved.push([key, c.previousAt]);
          if (c.count > limit) refusal.add(this.#untilWindowEnds(c.expiresAt), key);
        }
      }
      const verdict = refusal.verdict;
      if (!verdict.allowed) {
        // Taken back whole: a refused attempt neither counts nor restarts a wait.
        await this.#release(reserved);
        unlock();
        return { ...verdict, device: plan.device };
      }
      return { allowed: true, attempt: { attempt: a, plan, reserved, unlock } };
    } catch (err) {
      unlock();
      throw err;
    }
  }

  /**
   * Ends an attempt begun with begin(): a failure is counted on the account's buckets (the budgets counted
   * it already); a success is taken back out of the budgets and, when `final` (not a first factor awaiting
   * a second), clears the source's wait and makes the device known for the account. Always lets the next
   * attempt on the bucket go.
   */
  async end(ticket: AttemptTicket, outcome: { ok: boolean; username?: string; final?: boolean }): Promise<void> {
    const { plan } = ticket;
    try {
      if (!outcome.ok) {
        for (const { key } of plan.backoffs) await this.counters.hitCounter(key, BACKOFF_WINDOW_SECONDS);
        if (plan.cap) await this.counters.hitCounter(plan.cap, LONG_SECONDS);
        return;
      }
      await this.#release(ticket.reserved);
      if (outcome.final === false) return;
      for (const { key } of plan.backoffs) await this.counters.clearCounter(key);
      if (plan.cap) await this.#restartCap(plan.cap);
      await this.#remember({ ...ticket.attempt, username: outcome.username ?? ticket.attempt.username });
    } finally {
      ticket.unlock();
    }
  }

  /** Ends an attempt that could not be verified (the store failed): it counts as nothing. */
  async abort(ticket: AttemptTicket): Promise<void> {
    try {
      await this.#release(ticket.reserved);
    } finally {
      ticket.unlock();
    }
  }

  /** A success on the unknown-device path ends the run of consecutive failures — at most once a day. */
  async #restartCap(cap: string): Promise<void> {
    const marker = `cap-restarted:${cap}`;
    if (await this.counters.peekCounter(marker)) return;
    await this.counters.clearCounter(cap);
    await this.counters.hitCounter(marker, CAP_RESET_SECONDS);
  }

  async #release(reserved: [string, number | undefined][]): Promise<void> {
    for (const [key, previousAt] of reserved) await this.counters.releaseCounter(key, previousAt);
  }

  /** The device becomes known for the account for 180 days from this success. */
  async #remember(a: Attempt): Promise<void> {
    if (!a.username || !a.device || a.factor === 'badge') return;
    // Cleared first, so every success starts a new 180 days: a hit only renews a window that is over.
    await this.counters.clearCounter(knownKey(a));
    await this.counters.hitCounter(knownKey(a), KNOWN_DEVICE_SECONDS);
  }

  /**
   * Staff clear a user's waits (`lanyard users unlock`): every account bucket of the user is left behind
   * at once (they are keyed by an epoch that moves on), including a stopped unknown-device path. Known
   * devices stay known.
   */
  async unlock(organisationId: string, username: string): Promise<void> {
    await this.counters.clearCounter(epochKey(organisationId, username));
    await this.counters.hitCounter(epochKey(organisationId, username), LONG_SECONDS);
  }

  /** The user's unknown-device paths that are stopped, for `users list` and `users unlock`. */
  async stoppedFactors(organisationId: string, username: string): Promise<Factor[]> {
    const stopped: Factor[] = [];
    for (const factor of ['password', 'emoji', 'help_code'] as const) {
      const cap = `cap:${await this.#accountBase({ factor, organisationId, username, ip: '' })}`;
      const c = await this.counters.peekCounter(cap);
      if (c && c.count >= this.policy.newDeviceFailureCap) stopped.push(factor);
    }
    return stopped;
  }
}

/** Whom an attempt's budgets belong to: a classroom device, a Lanyard-signed device cookie, else the address. */
function sourceOf(a: Attempt): string {
  if (a.trustedDeviceId) return `trusted:${a.trustedDeviceId}`;
  return a.device?.signed ? `device:${a.device.id}` : `ip:${a.ip}`;
}

const epochKey = (organisationId: string, username: string) => `epoch:${organisationId}:${norm(username)}`;
const knownKey = (a: Attempt) => `known:${a.organisationId}:${norm(a.username!)}:${a.device!.id}`;

/** The longest of several refusals (the one that decides when the attempt may come back). */
class Worst {
  verdict: Verdict = { allowed: true };
  add(retryAfterSeconds: number, key: string, stopped = false): void {
    if (retryAfterSeconds <= 0) return;
    const v = this.verdict;
    if (!v.allowed && (v.stopped || (!stopped && v.retryAfterSeconds >= retryAfterSeconds))) return;
    this.verdict = { allowed: false, retryAfterSeconds, bucket: key.split(':', 1)[0]!, ...(stopped ? { stopped } : {}) };
  }
}
