import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeveloperDeps } from './deps.js';
import { cookieOf, randomCookieValue } from '../web/area/area-cookies.js';
import { sessionKeyOf } from '../web/area/area-sessions.js';
import { GENERATED_SECRET } from '../clients/client-secret.js';
import { area } from './area.js';

/**
 * A sign-in half done: the password was right and the second factor is still to come. It is its own short
 * record (`DeveloperSignIn`, 5 minutes, keyed by the SHA-256 of the `lanyard_developer_pending` cookie), never
 * a session: nothing of the developer area opens with it. Five wrong codes end it (then the password again).
 * It carries `accountId`, so ending the account's sessions ends it too.
 */
export const PENDING_COOKIE = 'lanyard_developer_pending';
const MODEL = 'DeveloperSignIn';
export const PENDING_SECONDS = 5 * 60;
export const PENDING_MAX_FAILURES = 5;
const VALUE = GENERATED_SECRET;

export interface PendingSignIn {
  [key: string]: unknown;
  accountId: string;
  /** Where to go once signed in (already checked: a /developer path). */
  next: string;
  failures: number;
  /** Epoch ms the record ends at (its lifetime does not slide). */
  endsAt: number;
}

export class PendingSignIns {
  constructor(private readonly deps: DeveloperDeps) {}

  async start(reply: FastifyReply, accountId: string, next: string): Promise<void> {
    const value = randomCookieValue();
    const endsAt = this.deps.clock.now().getTime() + PENDING_SECONDS * 1000;
    await this.deps.store.oidc.upsert(MODEL, sessionKeyOf(value), { accountId, next, failures: 0, endsAt } satisfies PendingSignIn, PENDING_SECONDS);
    area(this.deps).cookies.set(reply, PENDING_COOKIE, value, PENDING_SECONDS);
  }

  async current(req: FastifyRequest): Promise<(PendingSignIn & { key: string }) | undefined> {
    const value = cookieOf(req, PENDING_COOKIE);
    if (!value || !VALUE.test(value)) return undefined;
    const key = sessionKeyOf(value);
    const p = (await this.deps.store.oidc.find(MODEL, key)) as PendingSignIn | undefined;
    if (!p || typeof p.accountId !== 'string' || p.endsAt <= this.deps.clock.now().getTime()) return undefined;
    return { ...p, key };
  }

  /** Counts a wrong code; true while more tries are left (else the record is gone). */
  async fail(p: PendingSignIn & { key: string }): Promise<boolean> {
    const failures = p.failures + 1;
    if (failures >= PENDING_MAX_FAILURES) {
      await this.deps.store.oidc.destroy(MODEL, p.key);
      return false;
    }
    const left = Math.floor((p.endsAt - this.deps.clock.now().getTime()) / 1000);
    const { key: _key, ...record } = p;
    if (left > 0) await this.deps.store.oidc.upsert(MODEL, p.key, { ...record, failures }, left);
    return left > 0;
  }

  async end(reply: FastifyReply, p?: { key: string }): Promise<void> {
    if (p) await this.deps.store.oidc.destroy(MODEL, p.key);
    area(this.deps).cookies.clear(reply, PENDING_COOKIE);
  }
}
