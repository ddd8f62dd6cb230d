import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { labelPlacement } from '../../src/badges/label-layout.js';
import { letterSheet } from '../../src/cards/card-layout.js';
import { renderPasswordLetters } from '../../src/cards/password-letters.js';
import { run, textIn } from '../helpers/badge-pdf.js';

/**
 * Password letters as a printer sees them: the text of each half page read back with pdftotext (poppler-utils).
 * A file of its own: fontkit remembers which text a glyph stands for across the documents of one process,
 * and a glyph first met as part of another (the e inside ë) is remembered as standing for nothing, so a
 * second document's text would read back with letters missing (what is printed is right).
 */

const NAMES = ['Ada Jones', 'Zoë Ångström', 'Łukasz Wróblewski'];

t.test('password letters: two a page, each with the school, name, class, username, password and how to sign in', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'lanyard-letters-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const letters = NAMES.map((name, i) => ({
    name, school: 'River School', detail: 'Class 3B', username: `pupil.${i + 1}`, password: `abcd-efgh-jkmn-pq${i}${i}`,
  }));
  const pdf = join(dir, 'letters.pdf');
  await writeFile(pdf, await renderPasswordLetters(letters, { signInAt: 'https://id.river.example', paper: 'a4' }));
  t.match((await run('pdfinfo', [pdf])).stdout, /^Pages:\s+2$/m, 'three letters: two pages');
  const sheet = letterSheet('a4');
  for (const [index, letter] of letters.entries()) {
    const { page, cell } = labelPlacement(sheet, index);
    const text = await textIn(pdf, page, cell);
    for (const part of ['River School', letter.name, 'Class 3B', `Username ${letter.username}`, `Password ${letter.password}`]) {
      t.ok(text.replace(/[ \t]+/g, ' ').includes(part), `letter ${index + 1}: "${part}"`);
    }
    t.match(text, /Open https:\/\/id\.river\.example/, `letter ${index + 1}: where to sign in`);
    t.match(text, /hyphens are part of the password/, `letter ${index + 1}: how to type it`);
  }
});
