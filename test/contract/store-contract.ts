import type { Test } from 'tap';
import { oidcAdapterFactory } from '../../adapters/oidc-adapter.js';
import { DEFAULT_LOGIN_SETTINGS } from '../../adapters/store.js';
import type { Store, StoredKey, User } from '../../adapters/store.js';
import { type Clock, ManualClock } from '../../src/clock.js';

/**
 * The storage contract (DESIGN.md → Storage): every backend runs this suite unchanged, against a real
 * backend (a SQLite file, a real redis-server). Time is a ManualClock handed to `open`, so lifetimes are
 * decided by the injected clock, never by wall time.
 */

export interface OpenedStore {
  store: Store;
  /**
   * Opens another Store on the SAME data with the given clock. The suite calls it both while `store` is
   * still open (two instances on one store) and after closing it (a restart: nothing may be lost).
   * Leave it out for a store without a durable location (sqlite::memory:): those tests are then skipped.
   */
  reopen?: (clock: Clock) => Promise<Store>;
  /** Removes the data (file, database). Called once every store opened on it has been closed. */
  cleanup(): Promise<void>;
}

/** Opens a fresh, empty store on a new location. */
export type OpenStore = (clock: Clock) => Promise<OpenedStore>;

const START = new Date('2027-01-15T12:00:00.000Z');
const SECOND = 1000;

function storedKey(month: string, kid: string): StoredKey {
  return {
    kid,
    month,
    notBefore: `${month}-01T00:00:00.000Z`,
    notAfter: `${month}-28T23:59:59.000Z`,
    certificate: `cert-${kid}`,
    encryptedPrivateKey: `v1.iv.tag.${kid}`,
    createdAt: START.toISOString(),
  };
}

export function storeContract(t: Test, name: string, open: OpenStore): void {
  /** A fresh store on a fresh location, closed and removed when the test ends. */
  async function fresh(t: Test) {
    const clock = new ManualClock(START);
    const opened = await open(clock);
    const stores = [opened.store];
    t.teardown(async () => {
      for (const s of stores) await s.close();
      await opened.cleanup();
    });
    const reopen = opened.reopen
      ? async (c: Clock = clock) => {
          const s = await opened.reopen!(c);
          stores.push(s);
          return s;
        }
      : undefined;
    return { clock, store: opened.store, reopen };
  }

  const orgAndUser = async (store: Store) => {
    const org = await store.upsertOrganisation({ slug: 'north-school', name: 'North School' });
    const user = await store.upsertUser({
      organisationId: org.id, username: 'teacher', givenName: 'Tess', familyName: 'Teacher', type: 'employee',
    });
    return { org, user };
  };

  t.test(`${name}: store contract`, async (t) => {
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
      await codes.upsert('x', { grantId: 'g', uid: 'ux' }, 10);
      await sessions.upsert('x', { uid: 'us' }, 10);
      t.same(await codes.find('x'), { grantId: 'g', uid: 'ux' }, 'adapter find');
      t.same(await store.oidc.find('AuthorizationCode', 'x'), { grantId: 'g', uid: 'ux' }, 'stored under its model');
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

    t.test('directory: upsertOrganisation is idempotent by slug and keeps the id', async (t) => {
      const { store } = await fresh(t);
      const first = await store.upsertOrganisation({ slug: 'north-school', name: 'North School' });
      t.match(first.id, /^o\d{15}$/, 'an id is assigned');
      t.same(first, { id: first.id, slug: 'north-school', name: 'North School', login: DEFAULT_LOGIN_SETTINGS }, 'returned as stored, with the default sign-in methods');
      const again = await store.upsertOrganisation({ slug: 'north-school', name: 'North School (renamed)' });
      t.equal(again.id, first.id, 'same id on update');
      t.equal(again.name, 'North School (renamed)', 'name updated');
      const withOtherId = await store.upsertOrganisation({ id: 'o999999999999999', slug: 'north-school', name: 'N' });
      t.equal(withOtherId.id, first.id, 'an id given for an existing slug does not replace the stored id');
      const chosen = await store.upsertOrganisation({ id: 'o100000000000001', slug: 'south-school', name: 'S' });
      t.equal(chosen.id, 'o100000000000001', 'a new organisation takes the given id');
      t.equal((await store.searchOrganisations('school', 10)).length, 2, 'no duplicates created');
    });

    t.test('directory: findOrganisation by slug or by id', async (t) => {
      const { store } = await fresh(t);
      const org = await store.upsertOrganisation({ slug: 'north-school', name: 'North School' });
      await store.upsertOrganisation({ slug: 'south-school', name: 'South School' });
      t.same(await store.findOrganisation('north-school'), org, 'by slug');
      t.same(await store.findOrganisation(org.id), org, 'by id');
      t.equal(await store.findOrganisation('nowhere'), undefined, 'unknown');
      t.equal(await store.findOrganisation(''), undefined, 'empty');
    });

    t.test('directory: searchOrganisations is a case-insensitive substring search, alphabetical, limited', async (t) => {
      const { store } = await fresh(t);
      for (const [slug, name] of [
        ['zeta', 'Zeta Primary School'],
        ['alpha', 'alpha school of music'],
        ['beta', 'Beta Academy'],
        ['gamma-school', 'Gamma'],
        ['delta', 'Delta College'],
      ] as const) {
        await store.upsertOrganisation({ slug, name });
      }
      const names = async (q: string, limit = 10) => (await store.searchOrganisations(q, limit)).map((o) => o.slug);
      t.same(await names('SCHOOL'), ['alpha', 'gamma-school', 'zeta'], 'name or slug, any case, sorted by name ignoring case');
      t.same(await names('school', 2), ['alpha', 'gamma-school'], 'limited, after sorting');
      t.same(await names('ACAD'), ['beta'], 'substring in the middle of the name');
      t.same(await names('ta'), ['beta', 'delta', 'zeta'], 'alphabetical');
      t.same(await names('nothing-like-it'), [], 'no match');
      t.same(await names('%'), [], '% is not a wildcard');
      t.same(await names('_'), [], '_ is not a wildcard');
      const [hit] = await store.searchOrganisations('beta', 1);
      t.same(hit, await store.findOrganisation('beta'), 'full organisations are returned');
    });

    t.test('directory: upsertUser by (organisation, username) keeps the id, so sub is stable', async (t) => {
      const { store } = await fresh(t);
      const { org, user } = await orgAndUser(store);
      t.match(user.id, /^u\d{15}$/, 'user id: letter and digits');
      const updated = await store.upsertUser({
        organisationId: org.id, username: 'teacher', givenName: 'Tessa', familyName: 'Teach', type: 'admin',
      });
      t.equal(updated.id, user.id, 'same id after update');
      t.same([updated.givenName, updated.familyName, updated.type], ['Tessa', 'Teach', 'admin'], 'fields updated');
      const otherCase = await store.upsertUser({
        organisationId: org.id, username: 'TEACHER', givenName: 'T', familyName: 'T', type: 'employee',
      });
      t.equal(otherCase.id, user.id, 'the username is case-insensitive on upsert too');
      const other = await store.upsertOrganisation({ slug: 'south-school', name: 'South School' });
      const namesake = await store.upsertUser({
        organisationId: other.id, username: 'teacher', givenName: 'Sam', familyName: 'South', type: 'employee',
      });
      t.not(namesake.id, user.id, 'the same username in another organisation is another user');
      t.equal((await store.findUserByUsername(org.id, 'teacher'))?.givenName, 'T', 'first organisation unaffected');
      t.same(await store.findUser(user.id), otherCase, 'findUser by id');
      t.equal(await store.findUser('u000000000000000'), undefined, 'unknown id');
    });

    t.test('directory: username lookup is case-insensitive and scoped to the organisation', async (t) => {
      const { store } = await fresh(t);
      const { org, user } = await orgAndUser(store);
      t.equal((await store.findUserByUsername(org.id, 'teacher'))?.id, user.id, 'exact');
      t.equal((await store.findUserByUsername(org.id, 'TeAcHeR'))?.id, user.id, 'other case');
      t.equal(await store.findUserByUsername(org.id, 'teach'), undefined, 'no prefix match');
      const other = await store.upsertOrganisation({ slug: 'south-school', name: 'South School' });
      t.equal(await store.findUserByUsername(other.id, 'teacher'), undefined, 'not in another organisation');
    });

    t.test('directory: optional user fields round-trip, and are undefined (not null) when absent', async (t) => {
      const { store } = await fresh(t);
      const org = await store.upsertOrganisation({ slug: 'north-school', name: 'North School' });
      const full: Omit<User, 'id'> = {
        organisationId: org.id, username: 'pupil', givenName: 'Pip', familyName: 'Pupil', type: 'student',
        email: 'pip@example.org', googleEmail: 'pip@g.example', microsoftEmail: 'pip@m.example', rosterId: 'r-1',
      };
      const stored = await store.upsertUser(full);
      t.same(stored, { ...full, id: stored.id }, 'every field round-trips');
      t.same(await store.findUser(stored.id), stored, 'and reads back the same');
      const bare = await store.upsertUser({
        organisationId: org.id, username: 'pupil', givenName: 'Pip', familyName: 'Pupil', type: 'student',
      });
      t.equal(bare.id, stored.id, 'same user');
      for (const field of ['email', 'googleEmail', 'microsoftEmail', 'rosterId'] as const) {
        t.equal(bare[field], undefined, `${field} cleared to undefined on upsert`);
        t.equal((await store.findUser(bare.id))?.[field], undefined, `${field} undefined on findUser`);
        t.equal((await store.findUserByUsername(org.id, 'pupil'))?.[field], undefined, `${field} undefined by username`);
      }
    });

    t.test('directory: credentials are set, read and replaced per user and kind', async (t) => {
      const { store } = await fresh(t);
      const { org, user } = await orgAndUser(store);
      const other = await store.upsertUser({
        organisationId: org.id, username: 'pupil', givenName: 'P', familyName: 'P', type: 'student',
      });
      t.equal(await store.getCredential(user.id, 'password'), undefined, 'none at first');
      await store.setCredential(user.id, 'password', '$argon2id$first');
      t.equal(await store.getCredential(user.id, 'password'), '$argon2id$first', 'set');
      await store.setCredential(user.id, 'password', '$argon2id$second');
      t.equal(await store.getCredential(user.id, 'password'), '$argon2id$second', 'replaced');
      t.equal(await store.getCredential(other.id, 'password'), undefined, 'another user has none');
      await store.upsertUser({ organisationId: org.id, username: 'teacher', givenName: 'X', familyName: 'Y', type: 'employee' });
      t.equal(await store.getCredential(user.id, 'password'), '$argon2id$second', 'a user update keeps the credential');
    });

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

    t.test('badges: one active badge per user, found by hash, revocable by user or organisation', async (t) => {
      const { store } = await fresh(t);
      const { org, user } = await orgAndUser(store);
      const pupil = await store.upsertUser({ organisationId: org.id, username: 'pupil', givenName: 'P', familyName: 'Q', type: 'student' });
      await store.issueBadge(user.id, org.id, 'hash-1');
      t.same(await store.findBadge('hash-1'), { userId: user.id, organisationId: org.id });
      await store.issueBadge(user.id, org.id, 'hash-2');
      t.equal(await store.findBadge('hash-1'), undefined, 'a new badge voids the old one');
      t.same(await store.findBadge('hash-2'), { userId: user.id, organisationId: org.id });
      await store.issueBadge(pupil.id, org.id, 'hash-3');
      t.equal(await store.revokeBadges({ userId: user.id }), 1, 'one user');
      t.equal(await store.findBadge('hash-2'), undefined);
      t.ok(await store.findBadge('hash-3'), 'others keep theirs');
      t.equal(await store.revokeBadges({ organisationId: org.id }), 1, 'the whole organisation');
      t.equal(await store.findBadge('hash-3'), undefined);
    });

    t.test('directory: listUsers gives an organisation’s users by username', async (t) => {
      const { store } = await fresh(t);
      const { org } = await orgAndUser(store);
      await store.upsertUser({ organisationId: org.id, username: 'amy', givenName: 'A', familyName: 'B', type: 'student' });
      const other = await store.upsertOrganisation({ slug: 'south', name: 'South' });
      await store.upsertUser({ organisationId: other.id, username: 'zed', givenName: 'Z', familyName: 'Y', type: 'student' });
      t.same((await store.listUsers(org.id)).map((u) => u.username), ['amy', 'teacher']);
    });

    t.test('directory: organisation sign-in settings round-trip; an update without them keeps them', async (t) => {
      const { store } = await fresh(t);
      const login = { methods: ['badge' as const], badgeRequiresEmoji: true };
      const org = await store.upsertOrganisation({ slug: 'east', name: 'East', login });
      t.same(org.login, login);
      t.same((await store.upsertOrganisation({ slug: 'east', name: 'East Renamed' })).login, login, 'kept');
      t.same((await store.findOrganisation(org.id))?.login, login);
    });

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
  });
}
