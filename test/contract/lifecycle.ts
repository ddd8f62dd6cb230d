import type { Test } from 'tap';
import { type Fresh, orgAndUser, storedKey, SECOND } from './harness.js';

/** The store as a whole: close, restart (nothing lost), two instances on one store. */
export function lifecycleContract(t: Test, fresh: Fresh): void {
  t.test('close is idempotent', async (t) => {
    const { store } = await fresh(t);
    await store.close();
    await t.resolves(store.close(), 'closing twice is harmless');
  });

  t.test('persistence: everything survives close and reopen', async (t) => {
    const { store, clock, reopen } = await fresh(t);
    if (!reopen) {
      t.pass('no durable location: nothing to reopen');
      return;
    }
    const { org, user } = await orgAndUser(store);
    await store.setCredential(user.id, 'password', '$argon2id$hash');
    const key = storedKey('2027-01', 'kid-1');
    await store.insertKeyIfAbsent(key);
    await store.getOrCreateSetting('cookie-keys', () => 'keys');
    await store.oidc.upsert('RefreshToken', 'rt', { grantId: 'g', uid: 'u' }, 3600);
    await store.oidc.upsert('Session', 'short', {}, 60);
    await store.oidc.upsert('AuthorizationCode', 'code', {}, 600);
    await store.oidc.consume('AuthorizationCode', 'code');
    await store.close();

    clock.advance(120 * SECOND);
    const again = await reopen(clock);
    t.same(await again.findOrganisation(org.id), org, 'organisation');
    t.same(await again.findUser(user.id), user, 'user, same id');
    t.equal(await again.getCredential(user.id, 'password'), '$argon2id$hash', 'credential');
    t.same(await again.listKeys(), [key], 'signing key');
    t.equal(await again.getOrCreateSetting('cookie-keys', () => 'new'), 'keys', 'setting');
    t.same(await again.oidc.findByUid('RefreshToken', 'u'), { grantId: 'g', uid: 'u' }, 'oidc record');
    t.type((await again.oidc.find('AuthorizationCode', 'code'))?.consumed, 'number', 'consumed state');
    t.equal(await again.oidc.find('Session', 'short'), undefined, 'expiry still applies after reopen');
    clock.advance(3600 * SECOND);
    t.equal(await again.oidc.find('RefreshToken', 'rt'), undefined, 'the stored lifetime was kept, not restarted');
  });

  t.test('two instances on one store see each other\'s writes', async (t) => {
    const { store, reopen } = await fresh(t);
    if (!reopen) {
      t.pass('no durable location: a single instance only');
      return;
    }
    const second = await reopen();
    await store.oidc.upsert('Interaction', 'i', { uid: 'x' }, 60);
    t.same(await second.oidc.find('Interaction', 'i'), { uid: 'x' }, 'written by one, read by the other');
    await second.oidc.consume('Interaction', 'i');
    t.type((await store.oidc.find('Interaction', 'i'))?.consumed, 'number', 'consumed by the other');
    await second.oidc.destroy('Interaction', 'i');
    t.equal(await store.oidc.find('Interaction', 'i'), undefined, 'destroyed by the other');
  });

  t.test('ping: an open store answers; a closed one throws', async (t) => {
    const { store } = await fresh(t);
    await t.resolves(store.ping(), 'open: readable and writable');
    await store.close();
    await t.rejects(store.ping(), 'closed: not ready');
  });
}
