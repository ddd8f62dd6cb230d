import type { Test } from 'tap';
import { type Fresh, SECOND } from './harness.js';

/** Locks: one holder at a time across instances, released by its holder, freed when its time is up. */
export function locksContract(t: Test, fresh: Fresh): void {
  t.test('locks: one holder at a time; released by the holder only', async (t) => {
    const { store } = await fresh(t);
    const token = await store.tryLock('account:a', 10 * SECOND);
    t.type(token, 'string', 'taken');
    t.equal(await store.tryLock('account:a', 10 * SECOND), undefined, 'held: not taken again');
    t.type(await store.tryLock('account:b', 10 * SECOND), 'string', 'another key is independent');
    await store.unlock('account:a', 'not-the-token');
    t.equal(await store.tryLock('account:a', 10 * SECOND), undefined, 'a wrong token does not release it');
    await store.unlock('account:a', token!);
    t.type(await store.tryLock('account:a', 10 * SECOND), 'string', 'released: taken again');
  });

  t.test('locks: a lock whose time is up (on the injected clock) can be taken; the old holder cannot release the new', async (t) => {
    const { store, clock } = await fresh(t);
    const old = await store.tryLock('k', 5 * SECOND);
    clock.advance(4 * SECOND);
    t.equal(await store.tryLock('k', 5 * SECOND), undefined, 'still held before its time');
    clock.advance(1 * SECOND);
    const next = await store.tryLock('k', 5 * SECOND);
    t.type(next, 'string', 'taken when the time is up');
    t.not(next, old, 'a new token');
    await store.unlock('k', old!);
    t.equal(await store.tryLock('k', 5 * SECOND), undefined, 'the late release of the old holder leaves the new holder');
  });

  t.test('locks: of many concurrent attempts across two instances, exactly one wins', async (t) => {
    const { store, reopen } = await fresh(t);
    const other = reopen ? await reopen() : store;
    const tries = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? other : store).tryLock('race', 10 * SECOND)));
    t.equal(tries.filter(Boolean).length, 1, 'one winner');
  });

  t.test('locks: sweep removes locks whose time is up', async (t) => {
    const { store, clock } = await fresh(t);
    await store.tryLock('k', 5 * SECOND);
    clock.advance(6 * SECOND);
    t.ok((await store.sweep()) >= 1, 'counted by sweep');
    t.type(await store.tryLock('k', 5 * SECOND), 'string', 'free after sweep');
  });
}
