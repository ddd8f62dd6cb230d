import { randomBytes } from 'node:crypto';
import type { Test } from 'tap';
import type { Store } from '../../adapters/store.js';
import { copyStore } from '../../adapters/store-copy.js';
import type { Clock } from '../../src/clock.js';
import { IdentityWatch } from '../../src/keys/identity-watch.js';
import { KeyManager } from '../../src/keys/key-manager.js';
import {
  establishIdentity, IDENTITY_SETTING, initIdentity, LOSS_SETTING, needsInit, readIdentity,
} from '../../src/keys/store-identity.js';
import { pooledKeyPair } from '../helpers/test-keys.js';
import { type Fresh, storedKey } from './harness.js';

/**
 * The store's identity (docs/storage.md → The store's identity) on each backend: created once with the first
 * key, found again after a restart, agreed on by instances starting at once, adopted from a store of an
 * earlier release; a store emptied under a running instance is refused until `lanyard store init`.
 */
const KEK = randomBytes(32);
const manager = (store: Store, clock: Clock) =>
  new KeyManager({ store, clock, keyEncryptionKey: KEK, issuer: 'http://localhost:3000', generateKeyPair: pooledKeyPair });
const quiet = () => {
  const lines: { level: string; o: Record<string, unknown> }[] = [];
  return { lines, error: (o: object) => lines.push({ level: 'error', o: o as Record<string, unknown> }), info: (o: object) => lines.push({ level: 'info', o: o as Record<string, unknown> }) };
};

/** Empties the store the way a Redis restarted without persistence or deleted rows do, through the contract. */
async function empty(store: Store): Promise<void> {
  await store.deleteSetting(IDENTITY_SETTING);
  for (const k of await store.listKeys()) await store.deleteKey(k.kid);
}

export function identityContract(t: Test, fresh: Fresh): void {
  t.test('identity: a new store gets one with its first key; a restart finds the same', async (t) => {
    const { store, clock, reopen } = await fresh(t);
    const first = await establishIdentity(store, manager(store, clock), clock);
    t.equal(first.how, 'created', 'created');
    const keys = await store.listKeys();
    t.equal(keys.length, 1, 'with the first signing key');
    t.match(first.identity, { firstKid: keys[0]!.kid, createdAt: clock.now().toISOString(), origin: 'first-start' });
    t.same(await readIdentity(store), first.identity, 'stored');
    if (!reopen) return;
    const again = await reopen();
    const second = await establishIdentity(again, manager(again, clock), clock);
    t.same(second, { identity: first.identity, how: 'found' }, 'found after a restart, nothing minted');
    t.equal((await again.listKeys()).length, 1);
  });

  t.test('identity: instances starting at once on an empty store agree on one identity and one key', async (t) => {
    const { store, clock, reopen } = await fresh(t);
    const stores = reopen ? [store, await reopen()] : [store];
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => {
      const s = stores[i % stores.length]!;
      return establishIdentity(s, manager(s, clock), clock);
    }));
    t.equal(new Set(results.map((r) => r.identity.id)).size, 1, 'one identity');
    t.equal((await store.listKeys()).length, 1, 'one key');
  });

  t.test('identity: a store of an earlier release (keys, no identity) is adopted with its oldest key', async (t) => {
    const { store, clock } = await fresh(t);
    await store.insertKeyIfAbsent(storedKey('2026-12', 'old'));
    await store.insertKeyIfAbsent(storedKey('2027-01', 'current'));
    const adopted = await establishIdentity(store, manager(store, clock), clock);
    t.equal(adopted.how, 'adopted');
    t.match(adopted.identity, { firstKid: 'old', origin: 'adopted' });
    t.equal((await store.listKeys()).length, 2, 'nothing minted');
  });

  t.test('identity: emptied under a running instance: not ready, loss recorded, nothing minted, starts refused; store init serves again', async (t) => {
    const { store, clock, reopen } = await fresh(t);
    const keys = manager(store, clock);
    const { identity } = await establishIdentity(store, keys, clock);
    const log = quiet();
    const watch = new IdentityWatch({ store, clock, identity, log });
    keys.guardMinting(() => watch.assertIntact());
    t.equal(await watch.check(), undefined, 'intact');
    t.notOk(await needsInit(store), 'store init has nothing to do on an intact store');

    await empty(store);
    t.match(await watch.check(), { cause: 'identity_missing', expected: identity.id }, 'identity gone: named');
    await t.rejects(keys.current(), { code: 'store_identity_lost' }, 'minting refused');
    t.same(await store.listKeys(), [], 'no key minted');
    t.equal(log.lines.filter((l) => l.level === 'error').length, 1, 'one error line, however many checks');
    t.match(log.lines[0]!.o, { event: 'store.identity_lost', cause: 'identity_missing' });
    t.ok(await store.getSetting(LOSS_SETTING), 'the loss is recorded in the store');

    const starting = reopen ? await reopen() : store;
    await t.rejects(establishIdentity(starting, manager(starting, clock), clock), { code: 'store_identity_lost', lossCause: 'identity_missing' },
      'an instance starting later refuses the store');
    t.same(await store.listKeys(), [], 'and mints nothing');

    t.ok(await needsInit(store), 'store init has something to confirm');
    const confirmed = await initIdentity(starting, manager(starting, clock), clock);
    t.match(confirmed, { origin: 'operator' });
    t.not(confirmed.id, identity.id, 'a new identity');
    t.equal(await watch.check(), undefined, 'the running instance takes it');
    t.equal(watch.identity.id, confirmed.id);
    t.equal(await store.getSetting(LOSS_SETTING), undefined, 'the loss is cleared');
    t.equal((await establishIdentity(starting, manager(starting, clock), clock)).how, 'found', 'instances start again');
  });

  t.test('identity: keys deleted with the identity kept: keys_missing; a restored store is served again', async (t) => {
    const { store, clock } = await fresh(t);
    const { identity } = await establishIdentity(store, manager(store, clock), clock);
    const watch = new IdentityWatch({ store, clock, identity, log: quiet() });
    const saved = await store.listKeys();
    for (const k of saved) await store.deleteKey(k.kid);
    t.match(await watch.check(), { cause: 'keys_missing' });
    await t.rejects(establishIdentity(store, manager(store, clock), clock), { code: 'store_identity_lost', lossCause: 'keys_missing' }, 'a start is refused');
    for (const k of saved) await store.insertKeyIfAbsent(k);
    t.equal(await watch.check(), undefined, 'the keys restored (a backup): intact again');
    t.equal(await store.getSetting(LOSS_SETTING), undefined, 'and the recorded loss cleared');
  });

  t.test('identity: a copied store (lanyard store copy) is the same store: its identity and keys go with it', async (t) => {
    const { store: source, clock } = await fresh(t);
    const { identity } = await establishIdentity(source, manager(source, clock), clock);
    const { store: target } = await fresh(t);
    await copyStore(source, target, { clock });
    t.same(await establishIdentity(target, manager(target, clock), clock), { identity, how: 'found' }, 'found on the target, nothing minted');
    t.same(await target.listKeys(), await source.listKeys());
  });

  t.test('identity: replaced by an instance that took the emptied store for new: identity_changed', async (t) => {
    const { store, clock } = await fresh(t);
    const { identity } = await establishIdentity(store, manager(store, clock), clock);
    const watch = new IdentityWatch({ store, clock, identity, log: quiet() });
    await empty(store);
    const other = await establishIdentity(store, manager(store, clock), clock); // before the running one noticed
    t.equal(other.how, 'created');
    t.match(await watch.check(), { cause: 'identity_changed', expected: identity.id, found: other.identity.id });
  });
}
