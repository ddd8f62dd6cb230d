import type { Test } from 'tap';
import type { StoredConfigRevision } from '../../adapters/store.js';
import { type Fresh, SECOND, START } from './harness.js';

const stored = (version: number, hash: string, writtenBy = 'a'): StoredConfigRevision =>
  ({ version, hash, writtenAt: START.toISOString(), writtenBy });

/** The configuration file's revisions: the store's one, swapped atomically; the running instances', expiring. */
export function configRevisionsContract(t: Test, fresh: Fresh): void {
  t.test('config revisions: the store\'s revision is swapped only from the one expected', async (t) => {
    const { store } = await fresh(t);
    t.equal(await store.getConfigRevision(), undefined, 'none at first');
    const one = stored(1, 'sha256:one');
    t.equal(await store.swapConfigRevision(stored(0, 'sha256:zero'), one), false, 'refused: there is none, not the one expected');
    t.equal(await store.getConfigRevision(), undefined, 'still none');
    t.equal(await store.swapConfigRevision(undefined, one), true, 'recorded over none');
    t.same(await store.getConfigRevision(), one, 'read back');
    const two = stored(2, 'sha256:two', 'b');
    t.equal(await store.swapConfigRevision(undefined, two), false, 'refused: one is stored now');
    t.equal(await store.swapConfigRevision({ ...one, writtenBy: 'other' }, two), false, 'refused: not exactly the stored one');
    t.equal(await store.swapConfigRevision(one, two), true, 'swapped from the stored one');
    t.same(await store.getConfigRevision(), two);
  });

  t.test('config revisions: a stored revision that cannot be read counts as the oldest, and is swapped from as it is', async (t) => {
    const { store } = await fresh(t);
    for (const text of ['{ not json', JSON.stringify({ version: 'three' }), '[]']) {
      await store.putSetting('config-revision', text); // edited by hand
      const found = await store.getConfigRevision();
      t.match(found, { version: -1, hash: 'unreadable', unreadable: text }, `${text}: read as the oldest revision, no throw`);
      t.equal(await store.swapConfigRevision(found, stored(0, 'sha256:zero')), true, `${text}: a file's revision replaces it`);
      t.same(await store.getConfigRevision(), stored(0, 'sha256:zero'));
    }
  });

  t.test('config revisions: concurrent swaps from one revision: exactly one wins', async (t) => {
    const { store, reopen } = await fresh(t);
    const stores = reopen ? [store, await reopen()] : [store];
    const base = stored(1, 'sha256:base');
    await store.swapConfigRevision(undefined, base);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      stores[i % stores.length]!.swapConfigRevision(base, stored(2, `sha256:v${i}`))));
    t.equal(results.filter(Boolean).length, 1, 'one swap succeeded');
    const winner = results.indexOf(true);
    t.equal((await store.getConfigRevision())?.hash, `sha256:v${winner}`, 'and its revision is stored');
  });

  t.test('config revisions: running revisions are reported, renewed, listed until they expire, and forgotten', async (t) => {
    const { store, clock } = await fresh(t);
    t.same(await store.listRunningRevisions(), [], 'none at first');
    await store.reportRunningRevision('b-instance', { version: 1, hash: 'sha256:one' }, 30 * SECOND);
    await store.reportRunningRevision('a-instance', { version: 2, hash: 'sha256:two' }, 90 * SECOND);
    t.same(await store.listRunningRevisions(), [
      { instance: 'a-instance', version: 2, hash: 'sha256:two', expiresAt: START.getTime() + 90 * SECOND },
      { instance: 'b-instance', version: 1, hash: 'sha256:one', expiresAt: START.getTime() + 30 * SECOND },
    ], 'both, by instance');
    clock.advance(30 * SECOND);
    t.same((await store.listRunningRevisions()).map((r) => r.instance), ['a-instance'], 'b expired');
    await store.reportRunningRevision('b-instance', { version: 2, hash: 'sha256:two' }, 90 * SECOND);
    t.same((await store.listRunningRevisions()).map((r) => [r.instance, r.version]), [['a-instance', 2], ['b-instance', 2]], 'b renewed, with its new revision');
    await store.forgetRunningRevision('a-instance');
    await t.resolves(store.forgetRunningRevision('a-instance'), 'forgetting again: no error');
    t.same((await store.listRunningRevisions()).map((r) => r.instance), ['b-instance'], 'a forgotten');
    clock.advance(90 * SECOND);
    t.same(await store.listRunningRevisions(), [], 'every report expired');
    await store.sweep();
    await store.reportRunningRevision('c-instance', { version: 2, hash: 'sha256:two' }, 90 * SECOND);
    t.same((await store.listRunningRevisions()).map((r) => r.instance), ['c-instance'], 'expired reports leave nothing behind');
  });

  t.test('config revisions: another instance on the store sees the same', async (t) => {
    const { store, reopen } = await fresh(t);
    if (!reopen) return t.pass('no durable location: a single instance only');
    const other = await reopen();
    await store.swapConfigRevision(undefined, stored(3, 'sha256:three'));
    await store.reportRunningRevision('a', { version: 3, hash: 'sha256:three' }, 90 * SECOND);
    t.same(await other.getConfigRevision(), stored(3, 'sha256:three'));
    t.same((await other.listRunningRevisions()).map((r) => r.instance), ['a']);
  });
}
