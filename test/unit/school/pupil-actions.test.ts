import t from 'tap';
import { fileName, isPupilAction } from '../../../src/school/pupil-actions.js';

t.test('a PDF\'s file name: letters, digits and hyphens only', async (t) => {
  t.equal(fileName('badges', 'Class 3B'), 'badges-class-3b.pdf');
  t.equal(fileName('emoji-cards', 'Année 2 — Élan'), 'emoji-cards-annee-2-elan.pdf');
  t.equal(fileName('badges', '"; rm -rf /'), 'badges-rm-rf.pdf', 'nothing that could break the header');
  t.equal(fileName('badges', 'Класс 1'), 'badges-1.pdf');
  t.equal(fileName('badges', 'Класс'), 'badges-pupils.pdf', 'a title of no Latin letters: a plain name');
});

t.test('the actions a form may name', async (t) => {
  for (const a of ['badges', 'emoji-cards', 'void-badges', 'unlock', 'sign-out']) t.ok(isPupilAction(a), a);
  for (const a of ['reset-emoji', 'delete', '', undefined, ['unlock']]) t.notOk(isPupilAction(a), String(a));
});
