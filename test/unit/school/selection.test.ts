import t from 'tap';
import type { User } from '../../../adapters/store.js';
import { SchoolInputError } from '../../../src/school/errors.js';
import { choiceFields, chosenPupils, paperOf } from '../../../src/school/selection.js';

const pupil = (id: string) => ({ id, organisationId: 'o1', username: id, givenName: id, familyName: id, type: 'student' }) as User;
const pupils = [pupil('u1'), pupil('u2'), pupil('u3')];

t.test('the whole class, or the pupils ticked, and only the class\'s own', async (t) => {
  t.same(chosenPupils(pupils, { whole: '1', pupil: 'u1' }).users.map((u) => u.id), ['u1', 'u2', 'u3'], 'the whole class wins');
  t.same(chosenPupils(pupils, { pupil: ['u3', 'u1'] }).users.map((u) => u.id), ['u1', 'u3'], 'in the class\'s order');
  t.same(chosenPupils(pupils, { pupil: 'u2' }).users.map((u) => u.id), ['u2'], 'one box ticked');
  t.same(chosenPupils(pupils, { pupil: ['u2', 'someone-else'] }).users.map((u) => u.id), ['u2'], 'anyone else is no one');
  t.throws(() => chosenPupils(pupils, { pupil: 'someone-else' }), SchoolInputError, 'no pupil of the class: refused');
  t.throws(() => chosenPupils(pupils, {}), SchoolInputError, 'nothing ticked: refused');
  t.throws(() => chosenPupils(pupils, { whole: 'yes' }), SchoolInputError, 'whole is 1 or nothing');
  t.throws(() => chosenPupils([], { whole: '1' }), SchoolInputError, 'a class without pupils: nothing to do');
});

t.test('the choice said again, and the paper', async (t) => {
  t.same(choiceFields({ users: pupils, whole: true }), [['whole', '1']]);
  t.same(choiceFields({ users: pupils.slice(0, 2), whole: false }), [['pupil', 'u1'], ['pupil', 'u2']]);
  t.equal(paperOf({ paper: 'a4' }), 'a4');
  t.equal(paperOf({ paper: 'legal' }), 'letter');
  t.equal(paperOf(undefined), 'letter');
});
