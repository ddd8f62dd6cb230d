import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { User } from '../../../adapters/store.js';
import { actor, personName, subject } from '../../../src/audit/audit-people.js';
import { projectRoot } from '../../../src/package-files.js';

const user: User = { id: 'u100000000000001', organisationId: 'o1', username: 'ada.j', givenName: 'Ada', familyName: 'Jones', type: 'student' };

t.test('a person is named by given and family name, or by username when both are empty', async (t) => {
  t.equal(personName(user), 'Ada Jones');
  t.equal(personName({ ...user, familyName: '' }), 'Ada', 'one name: no stray space');
  t.equal(personName({ ...user, givenName: '' }), 'Jones');
  t.equal(personName({ ...user, givenName: '', familyName: '' }), 'ada.j', 'no name: the username');
});

t.test('an event names its actor and subject the same way', async (t) => {
  const mono = { ...user, familyName: '' };
  t.same(actor(mono), { actorId: mono.id, actorName: 'Ada' });
  t.same(subject({ ...user, givenName: '', familyName: '' }), { subjectId: user.id, subjectName: 'ada.j' });
});

t.test('the school console builds no names of people in its records by hand: it uses these', async (t) => {
  const school = join(projectRoot, 'src', 'school');
  const files = readdirSync(school, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  t.ok(files.length > 20, 'the console\'s files');
  const handBuilt = files.filter((f) => /\b(actorName|subjectName)\s*:/.test(readFileSync(join(school, f), 'utf8')));
  t.same(handBuilt, [], 'no actorName: or subjectName: of its own (actor(), subject() or recordPersonChange instead)');
});
