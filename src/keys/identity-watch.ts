import type { Store } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import {
  type IdentityCause, type IdentityLoss, LOSS_SETTING, lossMessage, readIdentity, type StoreIdentity, StoreIdentityLostError,
} from './store-identity.js';

type Log = { error(o: object, m: string): void; info(o: object, m: string): void };

export interface IdentityWatchDeps {
  store: Store;
  clock: Clock;
  /** The identity this instance started with (src/keys/store-identity.ts establishIdentity). */
  identity: StoreIdentity;
  log: Log;
}

/**
 * A running instance's memory of its store (docs/storage.md → The store's identity): each check reads the
 * identity and the signing keys (a setting and the key list, on every /readyz and key-rotation tick). When
 * the identity is gone or changed, or the keys are gone, the instance is not ready, says why once
 * (`store.identity_lost`, an error), records the loss in the store for instances starting later, and
 * refuses to mint a key, until the identity it knows comes back (a restored backup) or an operator starts
 * the store anew (`lanyard store init`, whose identity it then takes).
 */
export class IdentityWatch {
  #identity: StoreIdentity;
  #loss: IdentityLoss | undefined;
  #recorded = false;
  #checking: Promise<IdentityLoss | undefined> | undefined;

  constructor(private readonly deps: IdentityWatchDeps) {
    this.#identity = deps.identity;
  }

  /** The identity this instance serves. */
  get identity(): StoreIdentity { return this.#identity; }

  /** Reads the store now (concurrent callers share one read); the loss, or undefined while the store is intact. */
  check(): Promise<IdentityLoss | undefined> {
    this.#checking ??= this.#check().finally(() => { this.#checking = undefined; });
    return this.#checking;
  }

  /** Throws StoreIdentityLostError unless the store is intact now: the key manager asks before it mints. */
  async assertIntact(): Promise<void> {
    const loss = await this.check();
    if (loss) throw new StoreIdentityLostError(loss.cause, loss.message);
  }

  async #check(): Promise<IdentityLoss | undefined> {
    const { store, log } = this.deps;
    const found = await readIdentity(store);
    const keysLeft = (await store.listKeys()).length > 0;
    const mine = this.#identity.id;
    if (found && keysLeft && (found.id === mine || found.origin === 'operator')) {
      if (found.id !== mine) {
        log.info({ event: 'store.identity_confirmed', previous: mine, identity: found.id }, 'the store was started anew by an operator (lanyard store init): serving it');
        this.#identity = found;
      } else if (this.#loss) {
        log.info({ event: 'store.identity_restored', identity: mine }, 'the store this instance started on is back: ready again');
        if (this.#recorded) await store.deleteSetting(LOSS_SETTING);
      }
      this.#loss = undefined;
      this.#recorded = false;
      return undefined;
    }
    const cause: IdentityCause = !found ? 'identity_missing' : found.id !== mine ? 'identity_changed' : 'keys_missing';
    if (this.#loss?.cause !== cause) {
      this.#loss = {
        cause, expected: mine, found: found?.id, detectedAt: this.deps.clock.now().toISOString(), message: lossMessage(cause, mine, found?.id),
      };
      this.#recorded = false;
      log.error({ event: 'store.identity_lost', cause, expected: mine, found: found?.id }, `not ready: ${this.#loss.message}`);
    }
    if (!this.#recorded) {
      const loss = this.#loss;
      await store.getOrCreateSetting(LOSS_SETTING, () => JSON.stringify(loss));
      this.#recorded = true;
    }
    return this.#loss;
  }
}
