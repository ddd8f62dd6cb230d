import type { Test } from 'tap';
import { type Fresh } from './harness.js';

/** Settings: created once, shared by every instance. */
export function settingsContract(t: Test, fresh: Fresh): void {
  t.test('settings: getOrCreateSetting creates once and returns the same value after', async (t) => {
    const { store } = await fresh(t);
    let calls = 0;
    const create = () => `value-${++calls}`;
    t.equal(await store.getOrCreateSetting('cookie-keys', create), 'value-1', 'created');
    t.equal(await store.getOrCreateSetting('cookie-keys', create), 'value-1', 'same value the second time');
    t.equal(calls, 1, 'create is not called when the setting exists');
    t.equal(await store.getOrCreateSetting('other', () => 'x'), 'x', 'settings are per name');
  });

  t.test('settings: getSetting and putSetting read, create and replace', async (t) => {
    const { store } = await fresh(t);
    t.equal(await store.getSetting('seed:x'), undefined, 'absent');
    await store.putSetting('seed:x', 'one');
    t.equal(await store.getSetting('seed:x'), 'one', 'created');
    await store.putSetting('seed:x', 'two');
    t.equal(await store.getSetting('seed:x'), 'two', 'replaced');
    t.equal(await store.getOrCreateSetting('seed:x', () => 'three'), 'two', 'getOrCreateSetting sees it');
  });

  t.test('settings: concurrent getOrCreateSetting agree on one value', async (t) => {
    const { store, reopen } = await fresh(t);
    const stores = reopen ? [store, await reopen()] : [store];
    const values = await Promise.all(
      Array.from({ length: 10 }, (_, i) => stores[i % stores.length]!.getOrCreateSetting('kek', () => `v${i}`)),
    );
    t.equal(new Set(values).size, 1, 'every caller got the same value');
    t.equal(await store.getOrCreateSetting('kek', () => 'late'), values[0], 'and it is the stored one');
  });

  t.test('settings: deleteSetting removes one value, and is harmless when there is none', async (t) => {
    const { store } = await fresh(t);
    await store.putSetting('seed:a', 'one');
    await store.putSetting('seed:b', 'two');
    await store.deleteSetting('seed:a');
    t.equal(await store.getSetting('seed:a'), undefined, 'removed');
    t.equal(await store.getSetting('seed:b'), 'two', 'the other kept');
    await t.resolves(store.deleteSetting('seed:a'), 'again: no error');
    t.equal(await store.getOrCreateSetting('seed:a', () => 'new'), 'new', 'the name can be used again');
  });
}
