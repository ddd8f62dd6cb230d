import type { Test } from 'tap';
import { oidcAdapterFactory } from '../../adapters/oidc-adapter.js';
import { storedId } from '../../adapters/record-ids.js';
import { type Fresh, orgAndUser, storedKey, SECOND } from './harness.js';

/** Protocol records: oidc-provider's models, lifetimes on the injected clock, consume once, revoke by grant. */
export function oidcRecordsContract(t: Test, fresh: Fresh): void {
  t.test('oidc: upsert then find returns the payload unchanged', async (t) => {
    const { store } = await fresh(t);
    const payload = {
      accountId: 'u123456789012345', nested: { list: [1, 'two', true, null], émoji: '🔑' }, n: 0.5, flag: false,
      uid: 'uid-1', grantId: 'grant-1', userCode: 'ABCD-EFGH',
    };
    await store.oidc.upsert('AuthorizationCode', 'code-1', payload, 600);
    t.same(await store.oidc.find('AuthorizationCode', 'code-1'), payload, 'find');
    t.same(await store.oidc.findByUid('AuthorizationCode', 'uid-1'), payload, 'findByUid');
    t.same(await store.oidc.findByUserCode('AuthorizationCode', 'ABCD-EFGH'), payload, 'findByUserCode');
    t.equal(await store.oidc.find('AuthorizationCode', 'code-2'), undefined, 'unknown id');
    t.equal(await store.oidc.findByUid('AuthorizationCode', 'uid-2'), undefined, 'unknown uid');
    t.equal(await store.oidc.findByUserCode('AuthorizationCode', 'ZZZZ'), undefined, 'unknown user code');
  });

  t.test('oidc: upsert replaces the payload and its indexed fields', async (t) => {
    const { store } = await fresh(t);
    await store.oidc.upsert('Session', 's1', { uid: 'old-uid', grantId: 'g-old', extra: 'dropped' }, 600);
    await store.oidc.upsert('Session', 's1', { uid: 'new-uid', grantId: 'g-new' }, 600);
    t.same(await store.oidc.find('Session', 's1'), { uid: 'new-uid', grantId: 'g-new' }, 'whole payload replaced');
    t.equal(await store.oidc.findByUid('Session', 'old-uid'), undefined, 'old uid no longer finds it');
    t.same(await store.oidc.findByUid('Session', 'new-uid'), { uid: 'new-uid', grantId: 'g-new' }, 'new uid does');
    await store.oidc.revokeByGrantId('g-old');
    t.ok(await store.oidc.find('Session', 's1'), 'revoking the old grant leaves it');
    await store.oidc.revokeByGrantId('g-new');
    t.equal(await store.oidc.find('Session', 's1'), undefined, 'revoking the new grant removes it');
  });

  t.test('oidc: upsert REPLACES the lifetime, it can shrink and grow', async (t) => {
    const { store, clock } = await fresh(t);
    await store.oidc.upsert('Session', 'shrinks', { a: 1 }, 100);
    await store.oidc.upsert('Session', 'shrinks', { a: 2 }, 10);
    await store.oidc.upsert('Session', 'grows', { b: 1 }, 10);
    await store.oidc.upsert('Session', 'grows', { b: 2 }, 100);
    clock.advance(20 * SECOND);
    t.equal(await store.oidc.find('Session', 'shrinks'), undefined, '100 s then 10 s: gone after 20 s');
    t.same(await store.oidc.find('Session', 'grows'), { b: 2 }, '10 s then 100 s: still there after 20 s');
  });

  t.test('oidc: the lifetime counts from the upsert, on the injected clock, to the millisecond', async (t) => {
    const { store, clock } = await fresh(t);
    await store.oidc.upsert('AccessToken', 'at', { uid: 'u', userCode: 'c' }, 10);
    clock.advance(10 * SECOND - 1);
    t.ok(await store.oidc.find('AccessToken', 'at'), 'found 1 ms before expiry');
    t.ok(await store.oidc.findByUid('AccessToken', 'u'), 'findByUid 1 ms before expiry');
    t.ok(await store.oidc.findByUserCode('AccessToken', 'c'), 'findByUserCode 1 ms before expiry');
    clock.advance(1);
    t.equal(await store.oidc.find('AccessToken', 'at'), undefined, 'find: gone at expiry');
    t.equal(await store.oidc.findByUid('AccessToken', 'u'), undefined, 'findByUid: gone at expiry');
    t.equal(await store.oidc.findByUserCode('AccessToken', 'c'), undefined, 'findByUserCode: gone at expiry');
  });

  t.test('oidc: an expired record can be upserted again (fresh lifetime)', async (t) => {
    const { store, clock } = await fresh(t);
    await store.oidc.upsert('Interaction', 'i', { v: 1 }, 5);
    clock.advance(6 * SECOND);
    t.equal(await store.oidc.find('Interaction', 'i'), undefined, 'expired');
    await store.oidc.upsert('Interaction', 'i', { v: 2 }, 5);
    t.same(await store.oidc.find('Interaction', 'i'), { v: 2 }, 'back with the new payload');
  });

  t.test('oidc: consume marks the record with the epoch second of the clock, keeps the rest', async (t) => {
    const { store, clock } = await fresh(t);
    clock.advance(1234); // not on a whole second: consumed is floored to seconds
    await store.oidc.upsert('AuthorizationCode', 'c', { uid: 'u1', grantId: 'g', accountId: 'a' }, 60);
    t.equal((await store.oidc.find('AuthorizationCode', 'c'))?.consumed, undefined, 'not consumed before');
    t.equal(await store.oidc.consume('AuthorizationCode', 'c'), true, 'the first consume wins');
    const first = Math.floor(clock.now().getTime() / 1000);
    const consumed = await store.oidc.find('AuthorizationCode', 'c');
    t.same(consumed, { uid: 'u1', grantId: 'g', accountId: 'a', consumed: first }, 'consumed = epoch seconds');
    t.equal((await store.oidc.findByUid('AuthorizationCode', 'u1'))?.consumed, first, 'visible through findByUid');

    clock.advance(5 * SECOND);
    t.equal(await store.oidc.consume('AuthorizationCode', 'c'), false, 'a replay is told it lost');
    t.equal((await store.oidc.find('AuthorizationCode', 'c'))?.consumed, first, 'the first timestamp stays');

    clock.advance(55 * SECOND);
    t.equal(await store.oidc.find('AuthorizationCode', 'c'), undefined, 'consume does not extend the lifetime');
  });

  t.test('oidc: consume is atomic: of many at the same moment, exactly one wins', async (t) => {
    const { store } = await fresh(t);
    await store.oidc.upsert('RefreshToken', 'r', { grantId: 'g' }, 60);
    const results = await Promise.all(Array.from({ length: 20 }, () => store.oidc.consume('RefreshToken', 'r')));
    t.equal(results.filter(Boolean).length, 1, 'one winner among 20 concurrent consumes');
  });

  t.test('oidc: consume of a missing or expired record is a harmless no-op', async (t) => {
    const { store, clock } = await fresh(t);
    t.equal(await store.oidc.consume('AuthorizationCode', 'never-was'), false, 'missing: nothing consumed, no error');
    t.equal(await store.oidc.find('AuthorizationCode', 'never-was'), undefined, 'and nothing created');
    await store.oidc.upsert('AuthorizationCode', 'old', { a: 1 }, 1);
    clock.advance(2 * SECOND);
    t.equal(await store.oidc.consume('AuthorizationCode', 'old'), false, 'expired: nothing consumed, no error');
    t.equal(await store.oidc.find('AuthorizationCode', 'old'), undefined, 'and not revived');
  });

  t.test('oidc: destroy removes one record', async (t) => {
    const { store } = await fresh(t);
    await store.oidc.upsert('Session', 'a', { uid: 'ua' }, 60);
    await store.oidc.upsert('Session', 'b', { uid: 'ub' }, 60);
    await store.oidc.destroy('Session', 'a');
    t.equal(await store.oidc.find('Session', 'a'), undefined, 'destroyed');
    t.equal(await store.oidc.findByUid('Session', 'ua'), undefined, 'not by uid either');
    t.same(await store.oidc.find('Session', 'b'), { uid: 'ub' }, 'the other stays');
    await t.resolves(store.oidc.destroy('Session', 'a'), 'destroying again is harmless');
  });

  t.test('oidc: revokeByGrantId removes every model under that grant, and only those', async (t) => {
    const { store } = await fresh(t);
    const models = ['AuthorizationCode', 'AccessToken', 'RefreshToken', 'Grant'];
    for (const m of models) {
      await store.oidc.upsert(m, `${m}-1`, { grantId: 'g1' }, 600);
      await store.oidc.upsert(m, `${m}-2`, { grantId: 'g2' }, 600);
    }
    await store.oidc.upsert('Session', 'no-grant', { uid: 'x' }, 600);
    await store.oidc.revokeByGrantId('g1');
    for (const m of models) {
      t.equal(await store.oidc.find(m, `${m}-1`), undefined, `${m} of g1 removed`);
      t.same(await store.oidc.find(m, `${m}-2`), { grantId: 'g2' }, `${m} of g2 kept`);
    }
    t.ok(await store.oidc.find('Session', 'no-grant'), 'record without a grant kept');
  });

  t.test('oidc: revokeByClientId removes every model issued to that client, and only those', async (t) => {
    const { store, reopen } = await fresh(t);
    const models = ['Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken', 'ClientCredentials', 'DeviceCode'];
    for (const m of models) {
      await store.oidc.upsert(m, `${m}-mine`, { clientId: 'gone-app', grantId: `g-${m}`, accountId: 'u1', uid: `u-${m}` }, 600);
      await store.oidc.upsert(m, `${m}-theirs`, { clientId: 'other-app', accountId: 'u1' }, 600);
    }
    // A client id that only starts like it, and records that name no client (sessions, interactions).
    await store.oidc.upsert('AccessToken', 'prefix', { clientId: 'gone-app-2' }, 600);
    await store.oidc.upsert('Session', 'session', { uid: 's', accountId: 'u1', authorizations: { 'gone-app': { grantId: 'g' } } }, 600);
    await store.oidc.upsert('Interaction', 'interaction', { params: { client_id: 'gone-app' } }, 600);
    t.equal(await store.oidc.revokeByClientId('gone-app'), models.length, 'one of each model removed, counted');
    for (const m of models) {
      t.equal(await store.oidc.find(m, `${m}-mine`), undefined, `${m} of the client removed`);
      t.same(await store.oidc.find(m, `${m}-theirs`), { clientId: 'other-app', accountId: 'u1' }, `${m} of another client kept`);
    }
    t.equal(await store.oidc.findByUid('Grant', 'u-Grant'), undefined, 'not found by uid either');
    t.ok(await store.oidc.find('AccessToken', 'prefix'), 'a client whose id merely starts the same keeps its token');
    t.ok(await store.oidc.find('Session', 'session'), 'a record without a clientId of its own is kept');
    t.ok(await store.oidc.find('Interaction', 'interaction'), 'an interaction is kept');
    t.equal(await store.oidc.revokeByClientId('gone-app'), 0, 'again: nothing to remove');
    await store.oidc.upsert('AccessToken', 'moved', { clientId: 'gone-app' }, 600);
    await store.oidc.upsert('AccessToken', 'moved', { clientId: 'kept-app' }, 600);
    t.equal(await store.oidc.revokeByClientId('gone-app'), 0, 'a record rewritten for another client is out of reach');
    t.ok(await store.oidc.find('AccessToken', 'moved'), 'kept');
    if (!reopen) return;
    const other = await reopen();
    await other.oidc.upsert('RefreshToken', 'elsewhere', { clientId: 'gone-app' }, 600);
    t.equal(await store.oidc.revokeByClientId('gone-app'), 1, 'a record written by another instance is reached');
    t.equal(await other.oidc.find('RefreshToken', 'elsewhere'), undefined, 'gone for every instance');
  });

  t.test('oidc: models are separate namespaces', async (t) => {
    const { store } = await fresh(t);
    await store.oidc.upsert('AccessToken', 'same', { kind: 'at', uid: 'u', userCode: 'C' }, 600);
    await store.oidc.upsert('RefreshToken', 'same', { kind: 'rt', uid: 'u', userCode: 'C' }, 60);
    t.same(await store.oidc.find('AccessToken', 'same'), { kind: 'at', uid: 'u', userCode: 'C' }, 'AccessToken');
    t.same(await store.oidc.find('RefreshToken', 'same'), { kind: 'rt', uid: 'u', userCode: 'C' }, 'RefreshToken');
    t.equal((await store.oidc.findByUid('RefreshToken', 'u'))?.kind, 'rt', 'findByUid per model');
    t.equal((await store.oidc.findByUserCode('AccessToken', 'C'))?.kind, 'at', 'findByUserCode per model');
    t.equal(await store.oidc.find('Session', 'same'), undefined, 'a third model does not see it');
    await store.oidc.consume('AccessToken', 'same');
    t.equal((await store.oidc.find('RefreshToken', 'same'))?.consumed, undefined, 'consume is per model');
    await store.oidc.destroy('AccessToken', 'same');
    t.equal(await store.oidc.find('AccessToken', 'same'), undefined, 'destroyed in one model');
    t.ok(await store.oidc.find('RefreshToken', 'same'), 'kept in the other');
  });

  t.test('oidc: the oidc-provider adapter class maps one instance to one model', async (t) => {
    const { store, clock } = await fresh(t);
    const Adapter = oidcAdapterFactory(store.oidc);
    const codes = new Adapter('AuthorizationCode');
    const sessions = new Adapter('Session');
    await codes.upsert('x', { jti: 'x', grantId: 'g', uid: 'ux' }, 10);
    await sessions.upsert('x', { jti: 'x', uid: 'us' }, 10);
    t.same(await codes.find('x'), { grantId: 'g', uid: 'ux', jti: 'x' }, 'adapter find');
    t.same(await store.oidc.find('AuthorizationCode', storedId('AuthorizationCode', 'x')), { grantId: 'g', uid: 'ux' },
      'stored under its model, by the SHA-256 of its id, without the id (a code is a bearer value)');
    t.equal(await store.oidc.find('AuthorizationCode', 'x'), undefined, 'never by the id itself');
    t.same(await sessions.findByUid('us'), { uid: 'us' }, 'adapter findByUid');
    await codes.consume('x');
    t.type((await codes.find('x'))?.consumed, 'number', 'adapter consume');
    await sessions.revokeByGrantId('g'); // revocation is across models, whichever adapter asks
    t.equal(await codes.find('x'), undefined, 'adapter revokeByGrantId');
    await sessions.destroy('x');
    t.equal(await sessions.find('x'), undefined, 'adapter destroy');
    await codes.upsert('y', {}, 10);
    clock.advance(10 * SECOND);
    t.equal(await codes.find('y'), undefined, 'adapter never returns expired');
  });

  t.test('sweep removes only expired oidc records and returns how many', async (t) => {
    const { store, clock } = await fresh(t);
    await orgAndUser(store);
    await store.insertKeyIfAbsent(storedKey('2027-01', 'k1'));
    await store.getOrCreateSetting('cookie-keys', () => 'v');
    await store.oidc.upsert('Session', 'short-1', {}, 10);
    await store.oidc.upsert('AccessToken', 'short-2', { grantId: 'g' }, 10);
    await store.oidc.upsert('Grant', 'long', { grantId: 'g' }, 1000);
    await store.oidc.upsert('AuthorizationCode', 'consumed-long', {}, 1000);
    await store.oidc.consume('AuthorizationCode', 'consumed-long');
    t.equal(await store.sweep(), 0, 'nothing expired yet');
    clock.advance(11 * SECOND);
    t.equal(await store.sweep(), 2, 'two expired records swept');
    t.equal(await store.sweep(), 0, 'a second sweep finds nothing');
    t.ok(await store.oidc.find('Grant', 'long'), 'unexpired record kept');
    t.ok(await store.oidc.find('AuthorizationCode', 'consumed-long'), 'consumed but unexpired kept');
    t.ok(await store.findOrganisation('north-school'), 'organisations untouched');
    t.equal((await store.listKeys()).length, 1, 'keys untouched');
    t.equal(await store.getOrCreateSetting('cookie-keys', () => 'other'), 'v', 'settings untouched');
    await store.oidc.upsert('Session', 'short-1', { again: true }, 10);
    t.same(await store.oidc.find('Session', 'short-1'), { again: true }, 'a swept id can be used again');
  });
}
