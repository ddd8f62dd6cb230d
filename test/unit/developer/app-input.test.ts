import t from 'tap';
import { checkDetails, checkEmail, checkExpiry, checkSecretLabel } from '../../../src/developer/app-input.js';
import { ValidationError } from '../../../src/developer/errors.js';
import { endOfDay } from '../../../src/developer/pages/app-form.js';

const paths = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.fields.map((f) => f.path);
    throw err;
  }
  return [];
};

t.test('details: trimmed; empty optional fields clear; every problem at once', async (t) => {
  t.same(checkDetails({ name: '  Quest  ', description: ' Books ', homepageUrl: 'https://q.example', logoUrl: '' }, true),
    { name: 'Quest', description: 'Books', homepageUrl: 'https://q.example', logoUrl: undefined });
  t.same(checkDetails({ description: '' }, false), { description: undefined }, 'absent name left alone on an update');
  t.same(paths(() => checkDetails({ name: '', homepageUrl: 'ftp://x', logoUrl: 'http://x.example/l.png' }, true)), ['name', 'homepage_url', 'logo_url']);
  t.same(paths(() => checkDetails({ name: 'x'.repeat(81) }, true)), ['name']);
  t.same(paths(() => checkDetails({ name: 'two\nlines' }, true)), ['name']);
  t.same(paths(() => checkDetails({ description: 'x'.repeat(1001) }, false)), ['description']);
  t.same(checkDetails({ description: 'line one\r\nline two' }, false), { description: 'line one\nline two' });
});

t.test('details: no Unicode direction control, which would show a name reversed or reordered', async (t) => {
  for (const c of ['\u202E', '\u202D', '\u202A', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C']) {
    const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    t.same(paths(() => checkDetails({ name: `Maths ${c}emoh ruoy ot kcab og` }, true)), ['name'], `name with ${code}`);
    t.same(paths(() => checkDetails({ description: `Fun ${c}sdrow` }, false)), ['description'], `description with ${code}`);
  }
  t.same(checkDetails({ name: 'مدرسة القراءة' }, true), { name: 'مدرسة القراءة' }, 'right-to-left text itself is welcome');
});

t.test('secret label and expiry', async (t) => {
  t.equal(checkSecretLabel('  Production '), 'Production');
  t.same(paths(() => checkSecretLabel('   ')), ['label']);
  t.same(paths(() => checkSecretLabel('a'.repeat(61))), ['label']);
  t.equal(checkSecretLabel('a'.repeat(60)).length, 60);
  const now = new Date('2030-01-01T00:00:00Z');
  t.equal(checkExpiry(undefined, now), undefined);
  t.equal(checkExpiry(' ', now), undefined);
  t.equal(checkExpiry('2030-01-02T01:00:00+01:00', now), '2030-01-02T00:00:00.000Z', 'kept in UTC');
  t.same(paths(() => checkExpiry('2030-01-01T00:00:00Z', now)), ['expires_at'], 'now is not the future');
  t.same(paths(() => checkExpiry('2030-01-02', now)), ['expires_at'], 'a date without time and zone is refused');
  t.same(paths(() => checkExpiry('2030-13-40T00:00:00Z', now)), ['expires_at']);
});

t.test('email and date fields', async (t) => {
  t.equal(checkEmail(' Ada@Example.COM '), 'ada@example.com');
  t.same(paths(() => checkEmail('not an email')), ['email']);
  t.same(endOfDay(''), { ok: true });
  t.same(endOfDay('2031-05-11'), { ok: true, iso: '2031-05-11T23:59:59Z' });
  t.equal(endOfDay('2031-02-30').ok, false, 'a day that does not exist');
  t.equal(endOfDay('11/05/2031').ok, false);
});
