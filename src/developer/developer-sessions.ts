import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeveloperAccount } from '../../adapters/store.js';
import type { DeveloperDeps } from './deps.js';
import { clearDeveloperCookie, cookieOf, randomCookieValue, setDeveloperCookie } from './developer-cookies.js';
import { GENERATED_SECRET, secretKey } from '../clients/client-secret.js';

/**
 * Developer sessions. The browser holds a 256-bit random value in the `lanyard_developer` cookie; the store
 * holds only its SHA-256 (a `DeveloperSession` record whose `accountId` is the developer, so
 * `store.oidc.revokeByAccountId` ends them all). A session is over after 30 minutes without a request (the
 * record's lifetime slides, renewed at most once a minute so a busy page does not write on every request),
 * 12 hours after its sign-in whatever happens, at sign-out, and when it began before the account's
 * `sessionsValidAfter` (a password or second-factor change, "sign out everywhere").
 */
export const SESSION_COOKIE = 'lanyard_developer';
export const SESSION_MODEL = 'DeveloperSession';
export const IDLE_SECONDS = 30 * 60;
export const ABSOLUTE_SECONDS = 12 * 60 * 60;
const REFRESH_AFTER_MS = 60 * 1000;
const VALUE = GENERATED_SECRET;

interface SessionPayload {
  [key: string]: unknown;
  accountId: string;
  /** When this record was issued (epoch ms): compared with the account's sessionsValidAfter. */
  createdAt: number;
  /** When the person signed in (epoch ms): the 12-hour limit counts from here, also across a re-issue. */
  authAt: number;
  /** The last request that renewed the idle lifetime (epoch ms). */
  seenAt: number;
}

/** A live session: its key (the SHA-256 of the cookie, never the cookie) and its developer. */
export interface DeveloperSession {
  key: string;
  developer: DeveloperAccount;
  authAt: number;
}

export const sessionKeyOf = (cookieValue: string) => secretKey(cookieValue);

export class DeveloperSessions {
  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'secureCookies' | 'log'>) {}

  /**
   * Starts a session for the developer and gives this browser its cookie. `authAt` carries over the sign-in
   * time when a session is re-issued (after a password change), so the 12-hour limit is never extended.
   */
  async start(reply: FastifyReply, developer: DeveloperAccount, authAt?: number): Promise<DeveloperSession> {
    const value = randomCookieValue();
    const key = sessionKeyOf(value);
    const now = this.deps.clock.now().getTime();
    const payload: SessionPayload = { accountId: developer.id, createdAt: now, authAt: authAt ?? now, seenAt: now };
    const ttl = this.#ttl(payload, now);
    await this.deps.store.oidc.upsert(SESSION_MODEL, key, payload, ttl);
    // Expires with the absolute limit: the browser forgets what the store would refuse anyway.
    setDeveloperCookie(this.deps, reply, SESSION_COOKIE, value, Math.ceil((payload.authAt + ABSOLUTE_SECONDS * 1000 - now) / 1000));
    return { key, developer, authAt: payload.authAt };
  }

  /** The browser's live session, renewing its idle lifetime; undefined when there is none or it is over. */
  async current(req: FastifyRequest): Promise<DeveloperSession | undefined> {
    const value = cookieOf(req, SESSION_COOKIE);
    if (!value || !VALUE.test(value)) return undefined;
    const key = sessionKeyOf(value);
    const payload = (await this.deps.store.oidc.find(SESSION_MODEL, key)) as SessionPayload | undefined;
    if (!payload || typeof payload.accountId !== 'string') return undefined;
    const now = this.deps.clock.now().getTime();
    if (this.#ttl(payload, now) <= 0) {
      await this.deps.store.oidc.destroy(SESSION_MODEL, key);
      return undefined;
    }
    const developer = await this.deps.store.findDeveloper(payload.accountId);
    const validAfter = developer?.sessionsValidAfter ? Date.parse(developer.sessionsValidAfter) : 0;
    if (!developer || payload.createdAt < validAfter) {
      await this.deps.store.oidc.destroy(SESSION_MODEL, key);
      return undefined;
    }
    if (now - payload.seenAt >= REFRESH_AFTER_MS) {
      const renewed = { ...payload, seenAt: now };
      await this.deps.store.oidc.upsert(SESSION_MODEL, key, renewed, this.#ttl(renewed, now));
    }
    return { key, developer, authAt: payload.authAt };
  }

  /** Ends this browser's session (sign-out) and clears its cookie. */
  async end(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const value = cookieOf(req, SESSION_COOKIE);
    if (value && VALUE.test(value)) await this.deps.store.oidc.destroy(SESSION_MODEL, sessionKeyOf(value));
    clearDeveloperCookie(this.deps, reply, SESSION_COOKIE);
  }

  /** Clears the cookie only (the session is already over). */
  forget(reply: FastifyReply): void {
    clearDeveloperCookie(this.deps, reply, SESSION_COOKIE);
  }

  /** Seconds the record may live from `now`: the idle lifetime, cut short by the absolute one. */
  #ttl(p: SessionPayload, now: number): number {
    const idleEnds = p.seenAt + IDLE_SECONDS * 1000;
    const absoluteEnds = p.authAt + ABSOLUTE_SECONDS * 1000;
    return Math.floor((Math.min(idleEnds, absoluteEnds) - now) / 1000);
  }
}
