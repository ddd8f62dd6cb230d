import type { Test } from 'tap';
import { type Fresh, START, SECOND } from './harness.js';

/** Login counters: atomic hits in a window, across instances. */
export function countersContract(t: Test, fresh: Fresh): void {
  t.test('counters: hits count within a window that starts at the first hit; then a new window', async (t) => {
    const { store, clock } = await fresh(t);
    t.equal(await store.peekCounter('k'), undefined, 'nothing yet');
    const first = await store.hitCounter('k', 60);
    t.same(first, { count: 1, lastAt: START.getTime(), expiresAt: START.getTime() + 60 * SECOND });
    clock.advance(10 * SECOND);
    const second = await store.hitCounter('k', 60);
    t.same(second, { count: 2, lastAt: START.getTime() + 10 * SECOND, expiresAt: START.getTime() + 60 * SECOND, previousAt: START.getTime() },
      'the window does not slide; the hit before is reported');
    t.same(await store.peekCounter('k'), { count: 2, lastAt: START.getTime() + 10 * SECOND, expiresAt: START.getTime() + 60 * SECOND }, 'peek sees it');
    await store.releaseCounter('k', START.getTime());
    t.same(await store.peekCounter('k'), { count: 1, lastAt: START.getTime(), expiresAt: START.getTime() + 60 * SECOND }, 'a hit taken back, with its time');
    await store.releaseCounter('k');
    await store.releaseCounter('k');
    t.equal((await store.peekCounter('k'))?.count, 0, 'never below zero');
    await store.hitCounter('k', 60);
    t.equal((await store.hitCounter('other', 60)).count, 1, 'keys are separate');
    clock.advance(50 * SECOND);
    t.equal(await store.peekCounter('k'), undefined, 'gone when the window ends');
    const again = await store.hitCounter('k', 60);
    t.same([again.count, again.expiresAt], [1, START.getTime() + 120 * SECOND], 'a new window after it');
    await store.clearCounter('k');
    t.equal(await store.peekCounter('k'), undefined, 'cleared');
    clock.advance(61 * SECOND);
    t.ok((await store.sweep()) >= 1, 'sweep removes expired counters');
  });

  t.test('counters: concurrent hits are all counted (atomic), across instances', async (t) => {
    const { store, reopen } = await fresh(t);
    const stores = reopen ? [store, await reopen()] : [store];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % stores.length]!.hitCounter('spray', 600)));
    t.same(results.map((r) => r.count).sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i + 1), 'each hit saw its own count');
    t.equal((await store.peekCounter('spray'))?.count, 40);
  });
}
