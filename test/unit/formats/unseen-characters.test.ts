import t from 'tap';
import { codePointOf, hasControlCharacter, reordersText, showUnseen, unseenCharacter } from '../../../src/formats/unseen-characters.js';

const INVISIBLE = ['\u00AD', '\u180E', '\u200B', '\u200C', '\u200D', '\u2060', '\u2061', '\u2064', '\uFEFF'];
const DIRECTION = ['\u061C', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
const CONTROL = ['\u0000', '\u0001', '\u0009', '\u000A', '\u001B', '\u001F', '\u007F', '\u0080', '\u0085', '\u009F'];

t.test('each class: every character found, with its kind and code point, wherever it stands', async (t) => {
  for (const [kind, chars] of [['invisible', INVISIBLE], ['direction', DIRECTION], ['control', CONTROL]] as const) {
    for (const c of chars) {
      for (const text of [`${c}abc`, `ab${c}c`, `abc${c}`]) {
        t.same(unseenCharacter(text), { kind, codePoint: codePointOf(c) }, `${kind} ${codePointOf(c)} in ${JSON.stringify(text)}`);
      }
    }
  }
  t.equal(codePointOf('\u0000'), 'U+0000');
  t.equal(codePointOf('\uFEFF'), 'U+FEFF');
  t.equal(codePointOf('😀'), 'U+1F600', 'a whole code point, not half a surrogate pair');
});

t.test('ordinary text of any script has none', async (t) => {
  for (const text of ['ada@example.org', 'Zoë Ångström', 'محمد', 'שלום', '李小龍', 'नमस्ते', 'Ünïcödé 123 !#$%&\'*+/=?^_`{|}~-', 'a b', '😀']) {
    t.equal(unseenCharacter(text), undefined, text);
    t.equal(showUnseen(text), text, `shown as it is: ${text}`);
  }
});

t.test('kinds can be chosen; the name checks use two of them', async (t) => {
  t.equal(unseenCharacter('a\u200Bb', ['direction', 'control']), undefined, 'invisible left out');
  t.same(unseenCharacter('a\u200Bb\u202Ec', ['direction']), { kind: 'direction', codePoint: 'U+202E' });
  t.ok(reordersText('Maths \u202Eemoh'), 'reordersText: an override');
  t.notOk(reordersText('Maths\u200B'), 'not an invisible character');
  t.ok(hasControlCharacter('a\u0000'), 'C0');
  t.ok(hasControlCharacter('a\u0085'), 'C1');
  t.notOk(hasControlCharacter('a\u200B'), 'not an invisible character');
});

t.test('showUnseen(): each one written out, nothing else changed', async (t) => {
  t.equal(showUnseen('carol@example.org\u200B'), 'carol@example.org[U+200B]');
  t.equal(showUnseen('a\u202Eb\u0000c\uFEFF'), 'a[U+202E]b[U+0000]c[U+FEFF]');
  t.equal(showUnseen('\u200B\u200B'), '[U+200B][U+200B]', 'every one, not the first');
  const all = [...INVISIBLE, ...DIRECTION, ...CONTROL].join('');
  t.equal(unseenCharacter(showUnseen(all)), undefined, 'what it shows holds none');
});
