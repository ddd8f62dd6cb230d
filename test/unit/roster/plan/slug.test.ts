import t from 'tap';
import { slugFromName, uniqueSlug } from '../../../../src/roster/plan/slug.js';

t.test('a new organisation\'s slug: lower case, a-z 0-9 and dashes, accents dropped', async (t) => {
  t.equal(slugFromName('Hill Primary School'), 'hill-primary-school');
  t.equal(slugFromName('  École Saint-Exupéry (K–8)  '), 'ecole-saint-exupery-k-8');
  t.equal(slugFromName('北京'), 'school', 'nothing left: school');
  t.equal(slugFromName('Sandbox'), 'sandbox-school', 'never the sandbox\'s');
  t.equal(slugFromName('o123456789012345'), 'o123456789012345-school', 'never an organisation id\'s shape');
  const long = slugFromName('A'.repeat(30) + ' ' + 'B'.repeat(40));
  t.ok(long.length <= 60 && /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(long), long);
});

t.test('a taken slug gets -2, -3…', async (t) => {
  t.equal(uniqueSlug('hill', new Set()), 'hill');
  t.equal(uniqueSlug('hill', new Set(['hill', 'hill-2'])), 'hill-3');
});
