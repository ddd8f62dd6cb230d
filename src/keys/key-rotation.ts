import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { KeyManager, KeySet } from './key-manager.js';
import { nextRotation } from './policy.js';

export interface Rekeyable {
  readonly keys: KeySet;
  rekey(keys: KeySet): void;
}

export interface KeyRotationDeps {
  manager: KeyManager;
  host: Rekeyable;
  clock: Clock;
  log: FastifyBaseLogger;
  /** How often the store is checked for keys changed elsewhere (another instance, `keys rotate --now`). */
  pollMs?: number;
  /**
   * Whether the store is still the one this instance started on (src/keys/identity-watch.ts): when not, a
   * tick changes nothing, mints nothing and deletes nothing (docs/storage.md → The store's identity).
   */
  storeIntact?: () => Promise<boolean>;
}

const sameKids = (a: string[], b: string[]) => a.length === b.length && a.every((kid, i) => kid === b[i]);
/** setTimeout's limit: a longer wait is cut short and simply re-evaluated. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Operates the signing-key policy in a running service, without restarts (docs/architecture.md → Keys):
 * - at each tick, publishes exactly what the policy says for the current instant (rebuilding the provider
 *   through `host.rekey` when the set changed): the switch at 00:00:00 UTC on the 1st, a key rotated by an
 *   operator or created by another instance sharing the store;
 * - creates next month's key in the background during the last days of a month, and the current month's
 *   key if it is somehow missing (never on a request path; until then the previous key keeps signing);
 * - deletes keys whose certificates have expired;
 * - does none of it while the store is not the one this instance started on (`storeIntact`).
 * Ticks run on a timer set to the next boundary and on a short poll. Several instances on one store agree,
 * because what is published is a function of the time and of the stored keys only.
 */
export class KeyRotation {
  #chain: Promise<void> = Promise.resolve();
  #poll?: NodeJS.Timeout;
  #boundary?: NodeJS.Timeout;
  #stopped = false;

  constructor(private readonly deps: KeyRotationDeps) {}

  /** Evaluates the policy now. Ticks never overlap; an error is logged, and the next tick tries again. */
  tick(): Promise<void> {
    this.#chain = this.#chain.then(() => this.#tick()).catch((err: unknown) => {
      this.deps.log.error({ event: 'key.rotation_failed', err }, 'signing-key rotation failed; will retry');
    });
    return this.#chain;
  }

  async #tick(): Promise<void> {
    const { manager, host, clock, log } = this.deps;
    if (this.deps.storeIntact && !(await this.deps.storeIntact())) return;
    const now = clock.now();
    const wanted = await manager.publishedKids(now);
    const current = host.keys.published.map((k) => k.kid);
    let keys = sameKids(wanted, current) ? undefined : await manager.keySetAt(now);
    if (!keys && !sameKids(wanted, current)) {
      // This month's key does not exist yet (no instance was running to prepare it): make it now.
      log.warn({ event: 'key.missing', at: now.toISOString() }, 'no signing key for this month yet: generating one');
      await manager.current();
      keys = await manager.keySetAt(now);
    }
    if (keys && !sameKids(keys.published.map((k) => k.kid), current)) {
      host.rekey(keys);
      log.info({
        event: 'key.rotated',
        signing: keys.signing.kid,
        published: keys.published.map((k) => k.kid),
        withdrawn: current.filter((kid) => !keys.published.some((k) => k.kid === kid)),
      }, 'signing keys changed');
    }
    const prepared = await manager.prepareNext(now);
    if (prepared && new Date(prepared.createdAt).getTime() >= now.getTime()) {
      log.info({ event: 'key.prepared', kid: prepared.kid, month: prepared.month }, 'next month’s signing key is ready');
    }
    const purged = await manager.purgeExpired(now);
    if (purged.length) log.info({ event: 'key.purged', kids: purged }, 'expired signing keys deleted');
  }

  start(pollMs = this.deps.pollMs ?? 10_000): void {
    this.#stopped = false;
    this.#poll = setInterval(() => void this.tick(), pollMs);
    this.#poll.unref();
    this.#armBoundary();
    void this.tick();
  }

  #armBoundary(): void {
    if (this.#stopped) return;
    const now = this.deps.clock.now();
    const wait = Math.min(MAX_TIMER_MS, nextRotation(now).getTime() - now.getTime() + 1);
    this.#boundary = setTimeout(() => {
      void this.tick();
      this.#armBoundary();
    }, Math.max(wait, 1));
    this.#boundary.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#poll);
    clearTimeout(this.#boundary);
    await this.#chain;
  }
}
