import t from 'tap';
import type { Organisation, RosterClass, StaffGrant, User } from '../../../adapters/store.js';
import { classTiles, tileLabels, TILE_COLOURS, tilePupil } from '../../../src/accounts/class-tiles.js';

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

t.test('namesakes whose surname initial is shared too: as much of the surname as tells them apart; the same surname: a number and another colour', async (t) => {
  const twins = tileLabels([user('u1', 'Ava', 'Kowalski'), user('u2', 'Ava', 'Kruger'), user('u3', 'Ava', 'Nowak')], false, 'en');
  t.same(twins.map((p) => p.label), ['Ava Ko.', 'Ava Kr.', 'Ava N.'], 'the shortest start of each surname that no other Ava’s has');
  const close = tileLabels([user('u1', 'Ava', 'Kowalski'), user('u2', 'Ava', 'Kowalczyk')], false, 'pl');
  t.same(close.map((p) => p.label).sort(), ['Ava Kowalc.', 'Ava Kowals.'], 'as long as it must be');
  t.same(tileLabels([user('u1', 'Ben', 'Kim'), user('u2', 'Ben', 'Kimball')], false, 'en').map((p) => p.label), ['Ben Kim', 'Ben Kimb.'],
    'a surname that starts another’s: said whole, without a full stop');
  const same = tileLabels([user('u2', 'Ava', 'Kowalski'), user('u1', 'ava', 'kowalski'), user('u3', 'Ava', 'Kruger')], false, 'en');
  t.same(same.map((p) => [p.id, p.label]), [['u1', 'ava Ko. 1'], ['u2', 'Ava Ko. 2'], ['u3', 'Ava Kr.']],
    'the same surname: numbered in the order of their ids (told from Kruger as before)');
  t.same(tileLabels([user('u2', 'Ava', 'Kowalski'), user('u1', 'Ava', 'Kowalski')], false, 'en').map((p) => p.label), ['Ava K. 1', 'Ava K. 2'],
    'two alone: the initial and a number, no more of the surname');
  t.not(same[0]!.colour, same[1]!.colour, 'their circles differ');
  const many = tileLabels(Array.from({ length: TILE_COLOURS }, (_, i) => user(`u${i}`, 'Mia', 'Lee')), false, 'en');
  t.equal(new Set(many.map((p) => p.colour)).size, TILE_COLOURS, 'as many twins as colours: a colour each');
  t.equal(new Set(many.map((p) => p.label)).size, TILE_COLOURS, 'and a label each');
  t.same(tileLabels([user('u1', 'Ava', 'Kowalski'), user('u2', 'Ava', 'Kruger')], true, 'en').map((p) => p.label), ['Ava Ko.', 'Ava Kr.'],
    'with the school’s initials too');
});

t.test('a tapped tile’s pupil is checked alone: the class, their enrolment as a student, may they have a tile', async (t) => {
  const organisation = { id: 'o1', login: { methods: ['emoji'] } } as unknown as Organisation;
  const klass = { id: 'c1', organisationId: 'o1', sourcedId: 's1' } as RosterClass;
  const people = [user('u1', 'Ava', 'Kowalski'), user('u2', 'Ava', 'Kruger'), { ...user('u3', 'Tom', 'Teacher'), type: 'teacher' }, user('u4', 'Noor', 'Elsewhere')];
  const read: string[] = [];
  const store = {
    findClass: async (_o: string, id: string) => { read.push(`class ${id}`); return id === klass.id ? klass : undefined; },
    findUser: async (id: string) => { read.push(`user ${id}`); return people.find((p) => p.id === id); },
    userStaffGrants: async () => [] as StaffGrant[],
    userEnrolments: async (id: string) => (id === 'u4' ? [{ classId: 'c2', userId: id, role: 'student', primary: false }] : [{ classId: klass.id, userId: id, role: 'student', primary: false }]),
  };
  const ava = await tilePupil(store, organisation, klass.id, 'u1', 'en');
  t.same(ava && { id: ava.id, label: ava.label }, { id: 'u1', label: 'Ava' }, 'the pupil, by first name');
  t.same(read, ['class c1', 'user u1'], 'only the class and that pupil are read');
  t.equal(await tilePupil(store, organisation, klass.id, 'u3', 'en'), undefined, 'staff: not on the tiles');
  t.equal(await tilePupil(store, organisation, klass.id, 'u4', 'en'), undefined, 'a pupil of another class');
  t.equal(await tilePupil(store, organisation, 'c-gone', 'u1', 'en'), undefined, 'a class that is gone');
  t.equal(await tilePupil(store, organisation, klass.id, 'u-none', 'en'), undefined, 'no such pupil');
  const initials = await tilePupil(store, { ...organisation, login: { methods: ['emoji'], tilesShowSurnameInitial: true } } as Organisation, klass.id, 'u2', 'en');
  t.equal(initials?.label, 'Ava K.', 'the school’s initial');
});
