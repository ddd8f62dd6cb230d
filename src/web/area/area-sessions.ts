import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../../adapters/store.js';
import { secretKey } from '../../clients/client-secret.js';
import type { Clock } from '../../clock.js';
import { type AreaCookies, cookieOf, RANDOM_COOKIE_VALUE, randomCookieValue } from './area-cookies.js';

/**
 * The sessions of a signed-in area. The browser holds a 256-bit random value in the area's session cookie;
 * the store holds only its SHA-256 (a record of the area's model whose `accountId` is the account, so
 * `store.oidc.revokeByAccountId` ends them all). A session is over after `idleSeconds` without a request (the
 * record's lifetime slides, renewed at most once a minute so a busy page does not write on every request),
 * `absoluteSeconds` after its sign-in whatever happens, at sign-out, and when it began before the account's
 * `sessionsValidAfter` (a password or second-factor change, "sign out everywhere").
 */
export interface SessionPolicy {
  /** The session cookie's name. */
  cookie: string;
  /** The store model of the session records. */
  model: string;
  idleSeconds: number;
  absoluteSeconds: number;
}

/** What a session needs of an account. */
export interface SessionAccount {
  id: string;
  /** Sessions that began before this (ISO 8601) are over. */
  sessionsValidAfter?: string | undefined;
}

/** A live session: its key (the SHA-256 of the cookie, never the cookie) and its account. */
export interface AreaSession<A> {
  key: string;
  account: A;
  /** When the person signed in (epoch ms): kept when the session is re-issued. */
  authAt: number;
}

interface SessionPayload {
  [key: string]: unknown;
  accountId: string;
  /** When this record was issued (epoch ms, by the validAfterClock): compared with the account's sessionsValidAfter. */
  createdAt: number;
  /** When the person signed in (epoch ms): the absolute limit counts from here, also across a re-issue. */
  authAt: number;
  /** The last request that renewed the idle lifetime (epoch ms). */
  seenAt: number;
}

const REFRESH_AFTER_MS = 60 * 1000;

/** A session record's key: the SHA-256 of the cookie's value. */
export const sessionKeyOf = (cookieValue: string) => secretKey(cookieValue);

export interface AreaSessionDeps<A> {
  store: Pick<Store, 'oidc'>;
  clock: Clock;
  cookies: AreaCookies;
  /** The account a session record names (undefined when it is gone). */
  account(id: string): Promise<A | undefined>;
  /**
   * The clock the accounts' sessionsValidAfter is told by, so a session's issue time is stamped by it too:
   * `clock` unless said (a Lanyard user's is wall time, adapters/store/directory.ts → sessionsEndNow).
   */
  validAfterClock?: Clock | undefined;
}

export class AreaSessions<A extends SessionAccount> {
  constructor(private readonly deps: AreaSessionDeps<A>, readonly policy: SessionPolicy) {}

  /**
   * Starts a session for the account and gives this browser its cookie. `authAt` carries over the sign-in
   * time when a session is re-issued (after a password change), so the absolute limit is never extended.
   */
  async start(reply: FastifyReply, account: A, authAt?: number): Promise<AreaSession<A>> {
    const value = randomCookieValue();
    const key = sessionKeyOf(value);
    const now = this.deps.clock.now().getTime();
    const createdAt = (this.deps.validAfterClock ?? this.deps.clock).now().getTime();
    const payload: SessionPayload = { accountId: account.id, createdAt, authAt: authAt ?? now, seenAt: now };
    await this.deps.store.oidc.upsert(this.policy.model, key, payload, this.#ttl(payload, now));
    // Expires with the absolute limit: the browser forgets what the store would refuse anyway.
    this.deps.cookies.set(reply, this.policy.cookie, value, Math.ceil((payload.authAt + this.policy.absoluteSeconds * 1000 - now) / 1000));
    return { key, account, authAt: payload.authAt };
  }

  /** The browser's live session, renewing its idle lifetime; undefined when there is none or it is over. */
  async current(req: FastifyRequest): Promise<AreaSession<A> | undefined> {
    const value = cookieOf(req, this.policy.cookie);
    if (!value || !RANDOM_COOKIE_VALUE.test(value)) return undefined;
    const key = sessionKeyOf(value);
    const { model } = this.policy;
    const payload = (await this.deps.store.oidc.find(model, key)) as SessionPayload | undefined;
    if (!payload || typeof payload.accountId !== 'string') return undefined;
    const now = this.deps.clock.now().getTime();
    if (this.#ttl(payload, now) <= 0) {
      await this.deps.store.oidc.destroy(model, key);
      return undefined;
    }
    const account = await this.deps.account(payload.accountId);
    const validAfter = account?.sessionsValidAfter ? Date.parse(account.sessionsValidAfter) : 0;
    if (!account || payload.createdAt < validAfter) {
      await this.deps.store.oidc.destroy(model, key);
      return undefined;
    }
    if (now - payload.seenAt >= REFRESH_AFTER_MS) {
      const renewed = { ...payload, seenAt: now };
      await this.deps.store.oidc.upsert(model, key, renewed, this.#ttl(renewed, now));
    }
    return { key, account, authAt: payload.authAt };
  }

  /** Whether the browser holds a session cookie at all (live or not). */
  hasCookie(req: FastifyRequest): boolean {
    return cookieOf(req, this.policy.cookie) !== undefined;
  }

  /** Ends this browser's session (sign-out) and clears its cookie. */
  async end(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const value = cookieOf(req, this.policy.cookie);
    if (value && RANDOM_COOKIE_VALUE.test(value)) await this.deps.store.oidc.destroy(this.policy.model, sessionKeyOf(value));
    this.forget(reply);
  }

  /** Clears the cookie only (the session is already over). */
  forget(reply: FastifyReply): void {
    this.deps.cookies.clear(reply, this.policy.cookie);
  }

  /** Seconds the record may live from `now`: the idle lifetime, cut short by the absolute one. */
  #ttl(p: SessionPayload, now: number): number {
    const idleEnds = p.seenAt + this.policy.idleSeconds * 1000;
    const absoluteEnds = p.authAt + this.policy.absoluteSeconds * 1000;
    return Math.floor((Math.min(idleEnds, absoluteEnds) - now) / 1000);
  }
}
