import type { Counters, Locks } from '../../adapters/store.js';
import { StoreUnavailableError } from '../errors.js';
import type { Clock } from '../clock.js';
import type { ThrottlingConfig } from '../config.js';

/**
 * Guessing protection for low-entropy sign-in secrets (emoji passwords, passwords) and badge codes.
 * Counters live in the Store, so they hold across instances and restarts. The policy (README → Sign-in
 * protection):
 * - per account and device: `freeAttempts` failures, then waits of `baseWait` doubling up to `maxWait`.
 *   Devices are told apart by a device cookie; a device becomes *known* for an account when it signs in
 *   successfully, and every other device shares one bucket per account ("new devices"). Only the factor
 *   under attack is suspended, never the account, and a known device keeps its own count — so guessing
 *   from elsewhere cannot lock a pupil out of their classroom tablet. A success resets the device's count.
 * - per client IP and per organisation: budgets of failures from new devices in a window, which throttle
 *   sprays across many accounts (schools share one NAT address, so known devices are exempt).
 * - badges: an unknown code cannot target an account, so it counts against the device (or, without a
 *   device cookie, the IP) and the IP budget, never against an account.
 * Accounts are keyed by the username as typed (normalised), so an unknown user is throttled exactly like a
 * real one and responses cannot tell them apart. Any Store error propagates: callers fail closed.
 */
export type Factor = 'password' | 'emoji' | 'badge';

export interface ThrottlePolicy {
  freeAttempts: number;
  baseWaitSeconds: number;
  maxWaitSeconds: number;
  ipFailures: number;
  organisationFailures: number;
  badgeFailures: number;
  windowSeconds: number;
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  freeAttempts: 5,
  baseWaitSeconds: 30,
  maxWaitSeconds: 15 * 60,
  ipFailures: 100,
  organisationFailures: 300,
  badgeFailures: 10,
  windowSeconds: 15 * 60,
};

export function throttlePolicy(c: ThrottlingConfig = {}): ThrottlePolicy {
  const d = DEFAULT_THROTTLE_POLICY;
  return {
    freeAttempts: c.free_attempts ?? d.freeAttempts,
    baseWaitSeconds: c.base_wait_seconds ?? d.baseWaitSeconds,
    maxWaitSeconds: c.max_wait_seconds ?? d.maxWaitSeconds,
    ipFailures: c.ip_failures ?? d.ipFailures,
    organisationFailures: c.organisation_failures ?? d.organisationFailures,
    badgeFailures: c.badge_failures ?? d.badgeFailures,
    windowSeconds: c.window_seconds ?? d.windowSeconds,
  };
}

export interface Attempt {
  factor: Factor;
  organisationId: string;
  /** The username as typed; absent for badges. */
  username?: string;
  deviceId?: string | undefined;
  ip: string;
}

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number; bucket: string };

/** An attempt under way: what begin() counted, for end(). */
export interface AttemptTicket {
  attempt: Attempt;
  accountKey: string | undefined;
  /** Budget hits counted in advance: [key, the time of the hit before]. */
  reserved: [string, number | undefined][];
  unlock: () => void;
}

/**
 * The per-account lock: held while one attempt is checked, verified and recorded. Its lifetime bounds how
 * long a crashed instance can hold it; the wait bounds how long an attempt queues before failing closed.
 */
const LOCK_TTL_MS = 15_000;
const LOCK_WAIT_MS = 10_000;
const LOCK_POLL_MS = [2, 5, 10, 20, 40];

/** How long an account/device bucket stays counted, and how long a device stays known. */
const ACCOUNT_WINDOW_SECONDS = 24 * 60 * 60;
const KNOWN_DEVICE_SECONDS = 180 * 24 * 60 * 60;

export class LoginThrottle {
  /** Account buckets with an attempt under way in this process: the tail of each bucket's queue. */
  readonly #locks = new Map<string, Promise<void>>();

  constructor(
    private readonly counters: Counters & Locks,
    private readonly clock: Clock,
    readonly policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY,
  ) {}

  /** Waiting time after `failures` failures in an account/device bucket (0 while under the free attempts). */
  waitAfter(failures: number): number {
    const p = this.policy;
    if (failures < p.freeAttempts) return 0;
    return Math.min(p.baseWaitSeconds * 2 ** (failures - p.freeAttempts), p.maxWaitSeconds);
  }

  async #known(a: Attempt): Promise<boolean> {
    if (!a.deviceId || !a.username) return false;
    return (await this.counters.peekCounter(this.#knownKey(a))) !== undefined;
  }

  #knownKey = (a: Attempt) => `known:${a.organisationId}:${norm(a.username!)}:${a.deviceId}`;

  /** The buckets an attempt is counted in: [key, kind] — 'backoff' buckets wait, 'budget' buckets cap a window. */
  async #buckets(a: Attempt): Promise<[string, 'backoff' | 'budget'][]> {
    if (a.factor === 'badge') {
      const device: [string, 'budget'] = a.deviceId ? [`badge:device:${a.deviceId}`, 'budget'] : [`badge:ip:${a.ip}`, 'budget'];
      return [device, [`ip:${a.ip}`, 'budget']];
    }
    const known = await this.#known(a);
    const account = `account:${a.factor}:${a.organisationId}:${norm(a.username ?? '')}:${known ? a.deviceId : 'new-devices'}`;
    if (known) return [[account, 'backoff']];
    return [[account, 'backoff'], [`ip:${a.ip}`, 'budget'], [`organisation:${a.organisationId}`, 'budget']];
  }

  #limit(key: string): number {
    if (key.startsWith('badge:')) return this.policy.badgeFailures;
    return key.startsWith('ip:') ? this.policy.ipFailures : this.policy.organisationFailures;
  }

  /** May this attempt be verified now? */
  async check(a: Attempt): Promise<Verdict> {
    const now = this.clock.now().getTime();
    let worst: Verdict = { allowed: true };
    for (const [key, kind] of await this.#buckets(a)) {
      const c = await this.counters.peekCounter(key);
      if (!c) continue;
      let retry = 0;
      if (kind === 'backoff') retry = Math.ceil((c.lastAt + this.waitAfter(c.count) * 1000 - now) / 1000);
      else if (c.count >= this.#limit(key)) retry = Math.ceil((c.expiresAt - now) / 1000); // until the budget's window ends
      if (retry > 0 && (worst.allowed || retry > worst.retryAfterSeconds)) worst = { allowed: false, retryAfterSeconds: retry, bucket: key.split(':', 1)[0]! };
    }
    return worst;
  }

  async failed(a: Attempt): Promise<void> {
    for (const [key, kind] of await this.#buckets(a)) {
      await this.counters.hitCounter(key, kind === 'backoff' ? ACCOUNT_WINDOW_SECONDS : this.policy.windowSeconds);
    }
  }

  /**
   * Starts an attempt; end() must follow. Parallel attempts must not slip through together, so:
   * - attempts on one account bucket take turns (a lock per bucket, held in the store so it holds across
   *   instances, with a queue in each process in front of it so local waiters go in order): each is checked,
   *   verified and recorded before the next is checked — a burst of guesses stops after the free attempts,
   *   while a burst of right answers (a class on one shared account) all go through;
   * - the IP, organisation and badge budgets are counted first and only then checked (atomic in the store,
   *   so also across instances); the hit is taken back when the attempt succeeds or is refused.
   */
  async begin(a: Attempt): Promise<{ allowed: true; attempt: AttemptTicket } | (Verdict & { allowed: false })> {
    const buckets = await this.#buckets(a);
    const accountKey = buckets.find(([, kind]) => kind === 'backoff')?.[0];
    const unlock = accountKey ? await this.#lock(accountKey) : () => {};
    const reserved: [string, number | undefined][] = [];
    try {
      const now = this.clock.now().getTime();
      let refused: (Verdict & { allowed: false }) | undefined;
      const refuse = (retry: number, key: string) => {
        if (retry > 0 && (!refused || retry > refused.retryAfterSeconds)) {
          refused = { allowed: false, retryAfterSeconds: retry, bucket: key.split(':', 1)[0]! };
        }
      };
      for (const [key, kind] of buckets) {
        if (kind === 'backoff') {
          const c = await this.counters.peekCounter(key);
          if (c) refuse(Math.ceil((c.lastAt + this.waitAfter(c.count) * 1000 - now) / 1000), key);
        } else {
          const c = await this.counters.hitCounter(key, this.policy.windowSeconds);
          reserved.push([key, c.previousAt]);
          if (c.count > this.#limit(key)) refuse(Math.ceil((c.expiresAt - now) / 1000), key);
        }
      }
      if (refused) {
        // Taken back whole: a refused attempt neither counts nor restarts a wait.
        await this.#release(reserved);
        unlock();
        return refused;
      }
      return { allowed: true, attempt: { attempt: a, accountKey, reserved, unlock } };
    } catch (err) {
      unlock();
      throw err;
    }
  }

  /**
   * Ends an attempt begun with begin(): a failure is counted on the account bucket (the budgets counted it
   * already); a success is taken back out of the budgets and, when `final` (not a first factor awaiting a
   * second), resets the device's count and makes the device known for the account. Always lets the next
   * attempt on the bucket go.
   */
  async end(ticket: AttemptTicket, outcome: { ok: boolean; username?: string; final?: boolean }): Promise<void> {
    try {
      if (!outcome.ok) {
        if (ticket.accountKey) await this.counters.hitCounter(ticket.accountKey, ACCOUNT_WINDOW_SECONDS);
        return;
      }
      await this.#release(ticket.reserved);
      if (outcome.final !== false) await this.succeeded({ ...ticket.attempt, username: outcome.username ?? ticket.attempt.username });
    } finally {
      ticket.unlock();
    }
  }

  async #release(reserved: [string, number | undefined][]): Promise<void> {
    for (const [key, previousAt] of reserved) await this.counters.releaseCounter(key, previousAt);
  }

  /**
   * Waits for the attempts on `key` under way in this process, then takes the store's lock on it (other
   * instances' attempts), and holds both until the returned function runs. Fails closed (503) when the lock
   * cannot be had in LOCK_WAIT_MS.
   */
  async #lock(key: string): Promise<() => void> {
    const previous = this.#locks.get(key) ?? Promise.resolve();
    let unlockLocal!: () => void;
    const mine = new Promise<void>((resolve) => { unlockLocal = resolve; });
    const chained = previous.then(() => mine);
    this.#locks.set(key, chained);
    const releaseLocal = () => {
      unlockLocal();
      if (this.#locks.get(key) === chained) this.#locks.delete(key);
    };
    await previous;
    let token: string | undefined;
    try {
      token = await this.#takeStoreLock(`attempt:${key}`);
    } catch (err) {
      releaseLocal();
      throw err;
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // Released in the background: the next local waiter retries the store lock until it is free.
      this.counters.unlock(`attempt:${key}`, token).catch(() => {}).finally(releaseLocal);
    };
  }

  async #takeStoreLock(key: string): Promise<string> {
    const deadline = Date.now() + LOCK_WAIT_MS; // wall time: a real wait, whatever the injected clock says
    for (let i = 0; ; i += 1) {
      const token = await this.counters.tryLock(key, LOCK_TTL_MS);
      if (token) return token;
      if (Date.now() >= deadline) throw new StoreUnavailableError(new Error(`lock ${key} busy for ${LOCK_WAIT_MS} ms`));
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS[Math.min(i, LOCK_POLL_MS.length - 1)]));
    }
  }

  /** A success: this device's count for the account starts again, and the device becomes known for it. */
  async succeeded(a: Attempt): Promise<void> {
    if (!a.username) return;
    if (a.deviceId) {
      await this.counters.clearCounter(`account:${a.factor}:${a.organisationId}:${norm(a.username)}:${a.deviceId}`);
      // Cleared first, so every success starts a new 180 days: a hit only renews a window that is over, and
      // a tablet in daily use would otherwise lapse to a new device 180 days after its first sign-in.
      await this.counters.clearCounter(this.#knownKey(a));
      await this.counters.hitCounter(this.#knownKey(a), KNOWN_DEVICE_SECONDS);
    }
  }
}

const norm = (username: string) => username.trim().toLowerCase();
