import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../../adapters/store.js';
import type { Clock } from '../../clock.js';
import { csrfToken, csrfValid } from '../csrf.js';
import { AreaCookies, cookieOf, RANDOM_COOKIE_VALUE, randomCookieValue } from './area-cookies.js';
import { type AreaSession, AreaSessions, type SessionAccount, type SessionPolicy } from './area-sessions.js';
import { Flash } from './flash.js';
import { PendingSignIns } from './pending-sign-in.js';
import { Reveals } from './reveal.js';
import { TotpSetups } from './totp-setup.js';

/**
 * The kit of a signed-in area (the developer area, the school console): its cookies, sessions, the session
 * check that sends a signed-out browser to the sign-in page, CSRF for every form, flash messages, one-time
 * reveals, and the pieces of two-step sign-in (a half-done sign-in waiting for its second step, a second factor
 * being set up). An area is these settings; its pages use one instance (docs/architecture.md → The signed-in
 * area kit). Names follow the area's: `lanyard_<name>` (session), `lanyard_<name>_flash`, `lanyard_<name>_reveal`,
 * `lanyard_<name>_pre`, `lanyard_<name>_pending`, all on the area's path.
 */
export interface AreaOptions<A extends SessionAccount> {
  /** A short lower-case word: `developer`. */
  name: string;
  /** Where the area's pages live, and its cookies' Path: `/developer`. */
  path: string;
  /** The sign-in page a signed-out browser is sent to (with `?next=` the page it asked for). */
  signInPath: string;
  /** The page a sign-in goes to by default, and where a POST without a session goes back to. */
  home: string;
  /** `next` as far as it may be followed (a page of this area), else `home`. */
  safeNext(next: unknown): string;
  idleSeconds: number;
  absoluteSeconds: number;
  /** The account a session names (undefined when it is gone). */
  account(id: string): Promise<A | undefined>;
  /** What a forged or stale form is refused with (a 403 the area's pages know how to show). */
  csrfRefused(): Error;
  cookieKeys: readonly string[];
  /** Reveals are encrypted under a key derived from it. */
  keyEncryptionKey: Buffer;
  secureCookies: boolean;
  store: Pick<Store, 'oidc'>;
  clock: Clock;
  /** The clock the accounts' sessionsValidAfter is told by, when not `clock` (AreaSessionDeps). */
  validAfterClock?: Clock | undefined;
}

/** Someone signed in to the area in this browser. */
export interface AreaSignedIn<A> {
  account: A;
  /** The CSRF token every form of this session carries (src/web/components.ts csrfField). */
  csrf: string;
  /**
   * The session: its key (the SHA-256 of its cookie), which CSRF tokens and reveals are bound to, and when the
   * person signed in (epoch ms: kept when the session is re-issued).
   */
  session: { key: string; authAt: number };
}

const PRE_SECONDS = 60 * 60;

export class SignedInArea<A extends SessionAccount> {
  readonly cookies: AreaCookies;
  readonly sessions: AreaSessions<A>;
  readonly flash: Flash;
  readonly reveals: Reveals;
  readonly pendingSignIns: PendingSignIns;
  readonly totpSetups: TotpSetups;
  readonly #preCookie: string;

  constructor(private readonly o: AreaOptions<A>) {
    this.cookies = new AreaCookies({ path: o.path, secure: o.secureCookies });
    const policy: SessionPolicy = {
      cookie: `lanyard_${o.name}`, model: `${o.name[0]!.toUpperCase()}${o.name.slice(1)}Session`, idleSeconds: o.idleSeconds, absoluteSeconds: o.absoluteSeconds,
    };
    this.sessions = new AreaSessions({ store: o.store, clock: o.clock, validAfterClock: o.validAfterClock, cookies: this.cookies, account: o.account }, policy);
    this.flash = new Flash(this.cookies, o.cookieKeys, o.name);
    this.reveals = new Reveals({ cookies: this.cookies, store: o.store, clock: o.clock, keyEncryptionKey: o.keyEncryptionKey }, o.name);
    this.pendingSignIns = new PendingSignIns({ cookies: this.cookies, store: o.store, clock: o.clock }, o.name);
    this.totpSetups = new TotpSetups({ store: o.store, keyEncryptionKey: o.keyEncryptionKey }, o.name);
    this.#preCookie = `lanyard_${o.name}_pre`;
  }

  /** The AreaSignedIn of a session (after a sign-in, or a session re-issued on this request). */
  signedInAs(account: A, session: { key: string; authAt: number }): AreaSignedIn<A> {
    return { account, csrf: csrfToken(this.o.cookieKeys, `${this.o.name}:${session.key}`), session: { key: session.key, authAt: session.authAt } };
  }

  /**
   * The signed-in account; or undefined after answering: a 303 to the sign-in page with `?next=` this page
   * for a GET, a 303 the same way (nothing changed) for a POST whose session is gone.
   */
  async signedIn(req: FastifyRequest, reply: FastifyReply): Promise<AreaSignedIn<A> | undefined> {
    const session: AreaSession<A> | undefined = await this.sessions.current(req);
    // Pages of a signed-in account are never cached (back-button after sign-out shows nothing).
    reply.header('Cache-Control', 'no-store');
    if (!session) {
      if (this.sessions.hasCookie(req)) this.sessions.forget(reply);
      // A POST's URL is an action, not a page to come back to: it goes back to the area's home.
      const next = req.method === 'GET' || req.method === 'HEAD' ? this.o.safeNext(req.url) : this.o.home;
      reply.redirect(next === this.o.home ? this.o.signInPath : `${this.o.signInPath}?next=${encodeURIComponent(next)}`, 303);
      return undefined;
    }
    return this.signedInAs(session.account, session);
  }

  /** Throws the area's 403 unless the form's `csrf` field is this session's token. */
  checkCsrf(who: AreaSignedIn<A>, body: unknown): void {
    const presented = (body as Record<string, unknown> | null | undefined)?.csrf;
    if (!csrfValid(this.o.cookieKeys, `${this.o.name}:${who.session.key}`, presented)) throw this.o.csrfRefused();
  }

  /**
   * Forms shown before sign-in (sign-in, second step, sign-up, invitation) are bound to a short-lived random
   * cookie: the token is an HMAC of it under the cookie keys, so a cross-site post (which lacks both the cookie
   * under SameSite=Lax and the token) is refused — no login CSRF into an attacker's account. The token for
   * this browser's forms; gives the browser the cookie when it has none, and starts its hour over.
   */
  preSignInCsrf(req: FastifyRequest, reply: FastifyReply): string {
    let value = cookieOf(req, this.#preCookie);
    if (!value || !RANDOM_COOKIE_VALUE.test(value)) value = randomCookieValue();
    this.cookies.set(reply, this.#preCookie, value, PRE_SECONDS);
    return csrfToken(this.o.cookieKeys, `${this.o.name}-pre:${value}`);
  }

  /** Does the form carry the token of this browser's pre-sign-in cookie? */
  preSignInCsrfValid(req: FastifyRequest, body: unknown): boolean {
    const value = cookieOf(req, this.#preCookie);
    if (!value || !RANDOM_COOKIE_VALUE.test(value)) return false;
    return csrfValid(this.o.cookieKeys, `${this.o.name}-pre:${value}`, (body as Record<string, unknown> | undefined)?.csrf);
  }
}
