import type { Test } from 'tap';
import { DEFAULT_LOGIN_SETTINGS, type User } from '../../adapters/store.js';
import { type Fresh, orgAndUser } from './harness.js';

/** Directory: organisations, users and credentials. */
export function directoryContract(t: Test, fresh: Fresh): void {
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
    t.same(await store.findOrganisation('North-School'), org, 'by slug, in any case');
    // A slug wins over another organisation's id that looks the same.
    const lookalike = await store.upsertOrganisation({ slug: org.id, name: 'Lookalike' });
    t.same(await store.findOrganisation(org.id), lookalike, 'a slug before an id');
    t.same((await store.findOrganisation(lookalike.id))?.name, 'Lookalike', 'the lookalike by its own id');
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
    const login = { methods: ['badge' as const], badgeRequiresEmoji: true, language: 'ar' as const, tilesShowSurnameInitial: true };
    const org = await store.upsertOrganisation({ slug: 'east', name: 'East', login });
    t.same(org.login, login);
    t.same((await store.upsertOrganisation({ slug: 'east', name: 'East Renamed' })).login, login, 'kept');
    t.same((await store.findOrganisation(org.id))?.login, login);
  });
}
