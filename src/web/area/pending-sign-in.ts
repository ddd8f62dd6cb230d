import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../../adapters/store.js';
import type { Clock } from '../../clock.js';
import { type AreaCookies, cookieOf, RANDOM_COOKIE_VALUE, randomCookieValue } from './area-cookies.js';
import { sessionKeyOf } from './area-sessions.js';

/**
 * A sign-in half done: the first factor was right and the second is still to come. It is its own short record
 * (`<Area>SignIn`, 5 minutes, keyed by the SHA-256 of the `lanyard_<area>_pending` cookie), never a session:
 * nothing of the area opens with it. Five wrong codes end it (then the first factor again). It carries
 * `accountId`, so ending the account's sessions ends it too.
 */
export const PENDING_SECONDS = 5 * 60;
export const PENDING_MAX_FAILURES = 5;

export interface PendingSignIn {
  [key: string]: unknown;
  accountId: string;
  /** Where to go once signed in (already checked: a page of the area). */
  next: string;
  failures: number;
  /** Epoch ms the record ends at (its lifetime does not slide). */
  endsAt: number;
}

export interface PendingSignInDeps {
  store: Pick<Store, 'oidc'>;
  clock: Clock;
  cookies: AreaCookies;
}

export class PendingSignIns {
  readonly #cookie: string;
  readonly #model: string;

  constructor(private readonly deps: PendingSignInDeps, area: string) {
    this.#cookie = `lanyard_${area}_pending`;
    this.#model = `${area[0]!.toUpperCase()}${area.slice(1)}SignIn`;
  }

  async start(reply: FastifyReply, accountId: string, next: string): Promise<void> {
    const value = randomCookieValue();
    const endsAt = this.deps.clock.now().getTime() + PENDING_SECONDS * 1000;
    await this.deps.store.oidc.upsert(this.#model, sessionKeyOf(value), { accountId, next, failures: 0, endsAt } satisfies PendingSignIn, PENDING_SECONDS);
    this.deps.cookies.set(reply, this.#cookie, value, PENDING_SECONDS);
  }

  async current(req: FastifyRequest): Promise<(PendingSignIn & { key: string }) | undefined> {
    const value = cookieOf(req, this.#cookie);
    if (!value || !RANDOM_COOKIE_VALUE.test(value)) return undefined;
    const key = sessionKeyOf(value);
    const p = (await this.deps.store.oidc.find(this.#model, key)) as PendingSignIn | undefined;
    if (!p || typeof p.accountId !== 'string' || p.endsAt <= this.deps.clock.now().getTime()) return undefined;
    return { ...p, key };
  }

  /** Counts a wrong code; true while more tries are left (else the record is gone). */
  async fail(p: PendingSignIn & { key: string }): Promise<boolean> {
    const failures = p.failures + 1;
    if (failures >= PENDING_MAX_FAILURES) {
      await this.deps.store.oidc.destroy(this.#model, p.key);
      return false;
    }
    const left = Math.floor((p.endsAt - this.deps.clock.now().getTime()) / 1000);
    const { key: _key, ...record } = p;
    if (left > 0) await this.deps.store.oidc.upsert(this.#model, p.key, { ...record, failures }, left);
    return left > 0;
  }

  async end(reply: FastifyReply, p?: { key: string }): Promise<void> {
    if (p) await this.deps.store.oidc.destroy(this.#model, p.key);
    this.deps.cookies.clear(reply, this.#cookie);
  }
}
