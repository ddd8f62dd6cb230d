import t from 'tap';
import type { User } from '../../../adapters/store.js';
import { tileLabels, TILE_COLOURS } from '../../../src/accounts/class-tiles.js';

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
