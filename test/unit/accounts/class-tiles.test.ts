import t from 'tap';
import type { Organisation, RosterClass, StaffGrant, User } from '../../../adapters/store.js';
import { classTiles, tileLabels, TILE_COLOURS } from '../../../src/accounts/class-tiles.js';

const user = (id: string, givenName: string, familyName: string): User =>
  ({ id, organisationId: 'o1', username: `${givenName.toLowerCase()}.${id}`, givenName, familyName, type: 'student' }) as User;

t.test('tiles say first names, by first name; a surname initial only where a first name is shared, or the school asks', async (t) => {
  const pupils = [user('u3', 'Zoë', 'Ng'), user('u1', 'Ava', 'Kowalski'), user('u2', 'ava', 'Łukasik'), user('u4', 'Ben', 'Li')];
  const tiles = tileLabels(pupils, false, 'en');
  t.same(tiles.map((p) => p.label), ['Ava K.', 'ava Ł.', 'Ben', 'Zoë'], 'sorted; the two Avas (any case) get an initial');
  t.same(tiles.map((p) => p.initial), ['A', 'A', 'B', 'Z'], 'the circle’s letter');
  t.ok(tiles.every((p) => !p.label.includes('Kowalski') && !p.label.includes(p.username)), 'never a surname or a username');
  t.ok(tiles.every((p) => p.colour >= 0 && p.colour < TILE_COLOURS), 'a colour each');
  t.same(tileLabels(pupils, true, 'en').map((p) => p.label), ['Ava K.', 'ava Ł.', 'Ben L.', 'Zoë N.'], 'the school’s setting: an initial on every tile');
  t.same(tileLabels([user('u5', 'Émile', '')], true, 'fr').map((p) => p.label), ['Émile'], 'no surname: the first name alone');
});

t.test('a class’s tiles: its pupils of the school who may sign in; never staff or family, whatever their enrolment says', async (t) => {
  const organisation = { id: 'o1' } as Organisation;
  const klass = { id: 'c1', organisationId: 'o1', sourcedId: 's1' } as RosterClass;
  const people: User[] = [
    user('u1', 'Ava', 'Kowalski'),
    { ...user('u2', 'Tom', 'Teacher'), type: 'teacher' },
    { ...user('u3', 'Gail', 'Guardian'), type: 'guardian' },
    { ...user('u4', 'Eve', 'Employee'), type: 'employee' },
    { ...user('u5', 'Adam', 'Admin'), type: 'admin' },
    { ...user('u6', 'Sue', 'Suspended'), suspendedAt: '2026-01-01T00:00:00Z' },
    { ...user('u7', 'Otto', 'Other'), organisationId: 'o2' },
    user('u8', 'Gus', 'Granted'),
    user('u9', 'Tia', 'Teaches'),
  ];
  const store = {
    findClass: async (_o: string, id: string) => (id === klass.id ? klass : undefined),
    // Every one of them enrolled as a student: the roster's word alone lets no one onto a tile.
    classEnrolments: async () => people.map((p) => ({ classId: klass.id, userId: p.id, role: 'student', primary: false })),
    findUser: async (id: string) => people.find((p) => p.id === id),
    userStaffGrants: async (id: string) => (id === 'u8' ? [{ organisationId: 'o1', userId: id, role: 'teacher' }] : []) as StaffGrant[],
    userEnrolments: async (id: string) => (id === 'u9' ? [{ classId: 'c2', userId: id, role: 'aide', primary: false }] : []),
  };
  const tiles = await classTiles(store, { ...organisation, login: { methods: ['emoji'] } } as Organisation, klass.id, 'en');
  t.same(tiles.map((p) => p.label), ['Ava'], 'only the pupil');
  t.same(await classTiles(store, { ...organisation, login: { methods: ['emoji'] } } as Organisation, 'c-gone', 'en'), [], 'a class that is gone: none');
});
