import type { Test } from 'tap';
import { type Fresh, storedKey } from './harness.js';

/** Signing keys: one active key per month, created once. */
export function keysContract(t: Test, fresh: Fresh): void {
  t.test('keys: insertKeyIfAbsent creates once per month; the first one wins', async (t) => {
    const { store } = await fresh(t);
    const first = storedKey('2027-01', 'kid-first');
    t.same(await store.insertKeyIfAbsent(first), first, 'inserted: returns it, every field intact');
    const second = { ...storedKey('2027-01', 'kid-second'), certificate: 'other' };
    t.same(await store.insertKeyIfAbsent(second), first, 'same month, other kid: returns the FIRST');
    const keys = await store.listKeys();
    t.same(keys, [first], 'only the first is stored');
  });

  t.test('keys: listKeys is ordered by month', async (t) => {
    const { store } = await fresh(t);
    t.same(await store.listKeys(), [], 'empty at first');
    for (const [month, kid] of [['2027-03', 'c'], ['2026-12', 'z'], ['2027-01', 'a'], ['2027-10', 'b']]) {
      await store.insertKeyIfAbsent(storedKey(month!, kid!));
    }
    t.same((await store.listKeys()).map((k) => k.month), ['2026-12', '2027-01', '2027-03', '2027-10'], 'by month');
  });

  t.test('keys: many concurrent insertKeyIfAbsent for one month: exactly one kid wins, everyone gets it', async (t) => {
    const { store, reopen } = await fresh(t);
    // Two instances on one store when the backend can (DESIGN.md: two instances on one store).
    const stores = reopen ? [store, await reopen()] : [store];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores[i % stores.length]!.insertKeyIfAbsent(storedKey('2027-02', `kid-${i}`))),
    );
    const kids = new Set(results.map((k) => k.kid));
    t.equal(kids.size, 1, 'every caller got the same key');
    const keys = await store.listKeys();
    t.equal(keys.length, 1, 'exactly one key stored');
    t.equal(keys[0]?.kid, results[0]?.kid, 'the stored one is the one everyone got');
    t.same(keys[0], storedKey('2027-02', keys[0]!.kid), 'stored whole, not mixed from several inserts');
  });

  t.test('keys: replaceKey revokes the active key and makes the replacement active, atomically', async (t) => {
    const { store } = await fresh(t);
    const old = storedKey('2027-04', 'kid-old');
    await store.insertKeyIfAbsent(old);
    const replacement = { ...storedKey('2027-04', 'kid-new'), createdAt: '2027-04-10T12:00:00.000Z' };
    await store.replaceKey('kid-old', replacement, '2027-04-10T12:00:00.000Z');
    const keys = await store.listKeys();
    t.same(keys.map((k) => [k.kid, k.revokedAt]), [['kid-old', '2027-04-10T12:00:00.000Z'], ['kid-new', undefined]], 'old revoked, new active (listed by month, then creation)');
    t.same(await store.insertKeyIfAbsent(storedKey('2027-04', 'kid-third')), replacement, 'the replacement is now the month’s key');
    await t.rejects(store.replaceKey('kid-old', storedKey('2027-04', 'kid-x'), '2027-04-11T00:00:00.000Z'), 'a revoked key cannot be replaced again');
    await t.rejects(store.replaceKey('kid-missing', storedKey('2027-04', 'kid-y'), '2027-04-11T00:00:00.000Z'), 'nor an unknown one');
    t.equal((await store.listKeys()).length, 2, 'failed replacements store nothing');
  });

  t.test('keys: deleteKey removes one key only', async (t) => {
    const { store } = await fresh(t);
    await store.insertKeyIfAbsent(storedKey('2027-05', 'a'));
    await store.insertKeyIfAbsent(storedKey('2027-06', 'b'));
    await store.deleteKey('a');
    await store.deleteKey('does-not-exist');
    t.same((await store.listKeys()).map((k) => k.kid), ['b']);
  });
}
