import t from 'tap';
import { matchesQuery, searchQuery } from '../../../src/school/people-search.js';

const chloe = { givenName: 'Chloé', familyName: 'Dubois', username: 'p3b-3' };

t.test('a search by name: every word in the username, given or family name, whatever the case and accents', async (t) => {
  t.ok(matchesQuery(chloe, ''), 'no search: everyone');
  t.ok(matchesQuery(chloe, 'chloe'));
  t.ok(matchesQuery(chloe, '  CHLOÉ dub '), 'two words, both found');
  t.notOk(matchesQuery(chloe, 'chloe smith'), 'a word not found: not a match');
  t.ok(matchesQuery(chloe, 'p3b-3'), 'by username');
});

t.test('what was asked for is trimmed and capped', async (t) => {
  t.equal(searchQuery('  ada '), 'ada');
  t.equal(searchQuery(undefined), '');
  t.equal(searchQuery(['a', 'b']), '', 'a repeated field is no search');
  t.equal(searchQuery('x'.repeat(500)).length, 100);
});
