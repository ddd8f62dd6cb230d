import { randomUUID } from 'node:crypto';
import type { Store } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { LanyardError } from '../errors.js';
import type { KeyManager } from './key-manager.js';
import { signingMonth } from './policy.js';

/**
 * The store's identity (docs/storage.md → The store's identity): created once, with the first signing key,
 * so that an instance can tell the store it started on from one emptied under it (a Redis restarted without
 * persistence, deleted rows) and refuse to mint a key that would silently invalidate every token.
 */

/** The setting that holds the identity (JSON), and the one a running instance leaves when it finds it lost. */
export const IDENTITY_SETTING = 'store-identity';
export const LOSS_SETTING = 'store-identity-lost';

export interface StoreIdentity {
  /** Random, never reused. */
  id: string;
  /** When it was created (ISO 8601). */
  createdAt: string;
  /** The kid of the first signing key of this store (the oldest one, for an adopted identity). */
  firstKid: string;
  /** `first-start`: a new store; `adopted`: a store of an earlier release; `operator`: `lanyard store init`. */
  origin: 'first-start' | 'adopted' | 'operator';
}

/** Why a store is no longer the one an instance started on. */
export type IdentityCause = 'identity_missing' | 'identity_changed' | 'keys_missing';

/** A lost store as a running instance found it, and as it leaves it in the store for instances starting later. */
export interface IdentityLoss {
  cause: IdentityCause;
  /** The identity this instance started with. */
  expected: string;
  /** The identity found instead, when there is one. */
  found?: string | undefined;
  detectedAt: string;
  message: string;
}

const CONFIRM = 'restore the store from a backup, or confirm a new start with `lanyard store init` (docs/operations.md → When the store was emptied)';

/** The words of a loss, for the log, /readyz and the refusal to start. */
export function lossMessage(cause: IdentityCause, expected: string, found?: string): string {
  switch (cause) {
    case 'identity_missing':
      return `the store's identity ${expected} is gone: the store was emptied under Lanyard (a Redis restarted without persistence, deleted rows). No signing key is made, since every token issued before would stop verifying: ${CONFIRM}`;
    case 'identity_changed':
      return `the store's identity changed from ${expected} to ${found ?? '(unreadable)'}: this is not the store Lanyard started on. No signing key is made: ${CONFIRM}`;
    case 'keys_missing':
      return `the store's signing keys are gone (identity ${expected}): no signing key is made, since every token issued before would stop verifying: ${CONFIRM}`;
  }
}

/** The store's identity, or undefined when it has none; an unreadable record has the id `(unreadable)`. */
export async function readIdentity(store: Store): Promise<StoreIdentity | undefined> {
  const raw = await store.getSetting(IDENTITY_SETTING);
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<StoreIdentity>;
    if (typeof parsed.id === 'string' && parsed.id) return parsed as StoreIdentity;
  } catch { /* below */ }
  return { id: '(unreadable)', createdAt: '', firstKid: '', origin: 'first-start' };
}

/** The loss a running instance recorded, if any. */
export async function readLoss(store: Store): Promise<IdentityLoss | undefined> {
  const raw = await store.getSetting(LOSS_SETTING);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as IdentityLoss;
  } catch {
    return { cause: 'identity_missing', expected: '(unreadable)', detectedAt: '', message: lossMessage('identity_missing', '(unreadable)') };
  }
}

/** Stores a new identity unless one exists (atomic: several instances starting at once agree); returns the stored one. */
async function createIdentity(store: Store, clock: Clock, firstKid: string, origin: StoreIdentity['origin']): Promise<StoreIdentity> {
  const fresh: StoreIdentity = { id: randomUUID(), createdAt: clock.now().toISOString(), firstKid, origin };
  return JSON.parse(await store.getOrCreateSetting(IDENTITY_SETTING, () => JSON.stringify(fresh))) as StoreIdentity;
}

/** A refusal to start, or to go on, on a lost store: names the cause. */
export class StoreIdentityLostError extends LanyardError {
  constructor(readonly lossCause: IdentityCause, message: string) {
    super('store_identity_lost', message, 503);
    this.name = 'StoreIdentityLostError';
  }
}

export interface EstablishedIdentity {
  identity: StoreIdentity;
  /** What happened at this start: the identity was there, was created for a new store, or adopted. */
  how: 'found' | 'created' | 'adopted';
}

/**
 * At startup, before anything is written: the identity this instance remembers while it runs.
 * - found, with signing keys: the store this instance serves;
 * - found, with no signing key at all: the keys were deleted under it: refused;
 * - none, but a running instance recorded a loss (LOSS_SETTING): refused, naming that loss;
 * - none, with signing keys: a store of an earlier release: adopted (its oldest key is the first);
 * - none and no key: a new store: the month's first key is made and the identity with it — unless
 *   `newStores` is `operator` (LANYARD_STORE_INIT): then refused, for only `lanyard store init` starts a store
 *   anew (a store emptied while no instance ran looks exactly like a new one).
 * Throws StoreIdentityLostError on a refusal: `lanyard store init` is the operator's confirmation.
 */
export async function establishIdentity(
  store: Store, keyManager: KeyManager, clock: Clock, newStores: 'auto' | 'operator' = 'auto',
): Promise<EstablishedIdentity> {
  const found = await readIdentity(store);
  const keys = await store.listKeys();
  if (found) {
    if (found.id === '(unreadable)') throw new StoreIdentityLostError('identity_changed', lossMessage('identity_changed', '(none yet)'));
    if (!keys.length) throw new StoreIdentityLostError('keys_missing', lossMessage('keys_missing', found.id));
    return { identity: found, how: 'found' };
  }
  const loss = await readLoss(store);
  if (loss) throw new StoreIdentityLostError(loss.cause, `a running instance found this store lost at ${loss.detectedAt}: ${loss.message}`);
  if (keys.length) return { identity: await createIdentity(store, clock, keys[0]!.kid, 'adopted'), how: 'adopted' };
  if (newStores === 'operator') {
    throw new StoreIdentityLostError('identity_missing', 'the store holds no identity and no signing key: it is new, or was emptied while no '
      + 'instance ran. With LANYARD_STORE_INIT=operator only an operator starts it anew: run `lanyard store init` '
      + '(or restore the store from a backup)');
  }
  const first = await keyManager.ensureMonth(signingMonth(clock.now()));
  return { identity: await createIdentity(store, clock, first.kid, 'first-start'), how: 'created' };
}

/** Whether `lanyard store init` has anything to confirm: the store has no identity, no key, or a recorded loss. */
export async function needsInit(store: Store): Promise<boolean> {
  const found = await readIdentity(store);
  return !found || found.id === '(unreadable)' || !(await store.listKeys()).length || (await readLoss(store)) !== undefined;
}

/**
 * `lanyard store init`: the operator confirms that this store starts anew. The month's signing key is made
 * (or kept, when one is there), a new identity is written in place of any other, and the recorded loss is
 * cleared: running instances take the new identity at their next check (src/keys/identity-watch.ts).
 */
export async function initIdentity(store: Store, keyManager: KeyManager, clock: Clock): Promise<StoreIdentity> {
  const first = await keyManager.ensureMonth(signingMonth(clock.now()));
  const identity: StoreIdentity = { id: randomUUID(), createdAt: clock.now().toISOString(), firstKid: first.kid, origin: 'operator' };
  await store.putSetting(IDENTITY_SETTING, JSON.stringify(identity));
  await store.deleteSetting(LOSS_SETTING);
  return identity;
}
