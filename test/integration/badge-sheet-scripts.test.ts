import { mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../adapters/sqlite.js';
import type { Organisation, Store } from '../../adapters/store.js';
import { importOrganisations } from '../../src/roster/importer.js';
import { badgeName } from '../../src/badges/badge-name.js';
import { printBadgesCommand, type PrintOptions } from '../../src/cli/run-badges.js';
import { findBadgeHolder } from '../../src/badges/badges.js';
import { labelPlacement, sheetLayout, toPixels } from '../../src/badges/label-layout.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config/config.js';
import type { UserSeed } from '../../src/config/schema.js';
import { crop, jsQR, run, topLine, type Word, wordsOnPage } from '../helpers/badge-pdf.js';
import { projectRoot } from '../../src/package-files.js';

/**
 * Badge sheets for a school whose pupils' names are written in many scripts, printed by the real command on a
 * real SQLite store, and read back as a printer would print them: each label rasterised by poppler (pdftoppm)
 * and its QR code decoded (jsQR) to know whose badge it is, its text read with pdftotext.
 */
const DPI = 150;
const ARTIFACTS = join(projectRoot, 'test-artifacts');
const SCHOOL = 'Al-Noor International School';

const pupil = (username: string, given: string, family: string): UserSeed =>
  ({ username, given_name: given, family_name: family, type: 'student' });
const PUPILS: UserSeed[] = [
  pupil('laila', 'ليلى', 'حسن'), // Arabic: joined letters, right to left
  pupil('xiaoming', '小明', '王'), // Chinese: printed family name first, 王小明
  pupil('anna', 'Анна', 'Иванова'),
  pupil('nikos', 'Νίκος', 'Παπαδόπουλος'),
  pupil('hong', 'Thị Hồng', 'Nguyễn'), // Vietnamese: letters with two accents (ồ, ễ) and one below (ị)
  pupil('omar', 'Omar', 'الفاروق'), // both directions in one name, read left to right (its first letter's)
  pupil('maryam', 'مريم', 'Smith'), // and read right to left: Smith stands on the left
  pupil('dafna', 'דפנה', 'לוי'), // Hebrew
];
const STAFF: UserSeed[] = [
  { username: 'tess', given_name: 'Tess', family_name: 'Teacher', type: 'employee' },
  { username: 'ada', given_name: 'Ada', family_name: 'Admin', type: 'admin' },
];

interface School { dir: string; store: Store; org: Organisation; print: (o?: Partial<PrintOptions>) => Promise<string> }

async function school(t: Test): Promise<School> {
  const dir = await mkdtemp(join(tmpdir(), 'lanyard-badge-scripts-'));
  const db = join(dir, 'lanyard.db');
  const store = openSqliteStore(db, systemClock);
  t.teardown(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  await importOrganisations(store, [{ slug: 'al-noor', name: SCHOOL, users: [...PUPILS, ...STAFF] }], 'command');
  const config = loadConfig({ LANYARD_STORE: `sqlite:${db}` });
  let sheets = 0;
  const print = async (o: Partial<PrintOptions> = {}) => {
    const out = join(dir, `badges-${++sheets}.pdf`);
    await printBadgesCommand(config, systemClock, { slug: 'al-noor', paper: 'letter', out, ...o });
    return out;
  };
  return { dir, store, org: (await store.findOrganisation('al-noor'))!, print };
}

interface Label { username: string | undefined; name: Word[]; text: string }

/** Every label of a sheet (Letter), in order: whose badge its QR code is, its name line, and all its text. */
async function readLabels(s: School, pdf: string, artifact?: string): Promise<Label[]> {
  const prefix = join(s.dir, 'page');
  await run('pdftoppm', ['-r', `${DPI}`, '-png', pdf, prefix]);
  const files = (await readdir(s.dir)).filter((f) => f.startsWith('page') && f.endsWith('.png')).sort();
  const pages = await Promise.all(files.map(async (f) => PNG.sync.read(await readFile(join(s.dir, f)))));
  if (artifact) {
    await mkdir(ARTIFACTS, { recursive: true });
    await run('cp', [join(s.dir, files[0]!), join(ARTIFACTS, artifact)]);
  }
  await Promise.all(files.map((f) => rm(join(s.dir, f))));
  const layout = sheetLayout('letter');
  const labels: Label[] = [];
  const words = await Promise.all(pages.map((_, page) => wordsOnPage(pdf, page)));
  for (let index = 0; ; index++) {
    const { page, cell } = labelPlacement(layout, index);
    if (!pages[page]) break;
    const px = toPixels(cell, DPI);
    const qr = jsQR(crop(pages[page]!, px), px.width, px.height)?.data;
    if (!qr) break;
    const text = words[page]!.filter((w) => w.xMin >= cell.x && w.xMax <= cell.x + cell.width
      && w.yMin >= cell.y - 2 && w.yMax <= cell.y + cell.height).map((w) => w.text).join(' ');
    labels.push({ username: (await findBadgeHolder(s.store, s.org, qr))?.username, name: topLine(words[page]!, cell), text });
  }
  return labels;
}

const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
/** A name's direction is its first letter's (UAX #9 P2). */
const rightToLeft = (name: string) => RTL_LETTER.test(/\p{L}/u.exec(name)?.[0] ?? '');

/**
 * The printed words in reading order, as written. A right-to-left word's letters may come back in the order
 * they stand on the page (poppler's -bbox does that), so such a word is also accepted reversed; the order of
 * the words is checked by where they stand: in a right-to-left name the first word is the rightmost.
 * (Good for these names: none nests a right-to-left phrase of several words inside a left-to-right name.)
 */
function readingOrder(line: Word[], expected: string): string {
  const words = line.map((w) => w.text.replace(BIDI_CONTROLS, '').normalize('NFC'));
  const wanted = expected.split(' ');
  const read = (rightToLeft(expected) ? words.reverse() : words).map((w, i) => {
    const backwards = [...w].reverse().join('');
    return RTL_LETTER.test(w) && backwards === wanted[i] ? backwards : w;
  });
  return read.join(' ');
}

t.test('names in Arabic, Chinese, Cyrillic, Greek, Vietnamese and Hebrew are printed as written', async (t) => {
  const s = await school(t);
  const pdf = await s.print();
  const labels = await readLabels(s, pdf, 'badges-scripts-page-1.png');
  t.same(labels.map((l) => l.username).sort(), PUPILS.map((p) => p.username).sort(), 'one label per pupil');
  for (const label of labels) {
    const user = PUPILS.find((p) => p.username === label.username)!;
    const name = badgeName({ givenName: user.given_name, familyName: user.family_name });
    t.equal(readingOrder(label.name, name), name, `${label.username}'s label reads "${name}"`);
    t.notMatch(label.text, /\?|\uFFFD/, `${label.username}: no letter replaced by ? or �`);
    t.match(label.text, SCHOOL, `${label.username}: the school`);
  }
  t.equal(badgeName({ givenName: '小明', familyName: '王' }), '王小明', 'a Chinese name: family name first, no space');

  // Each script in a font that has it, embedded as a subset: the 8 MB Chinese font adds only its few glyphs.
  const { stdout: fonts } = await run('pdffonts', [pdf]);
  for (const face of ['NotoSans-Bold', 'NotoSans-Regular', 'NotoNaskhArabic-Bold', 'NotoSansHebrew-Bold', 'NotoSansHans-Bold']) {
    t.match(fonts, new RegExp(`^[A-Z]{6}\\+${face}\\s.*\\byes\\s+yes\\s+yes\\b`, 'm'), `${face}: embedded, subset, with text`);
  }
  t.notMatch(fonts, /Helvetica/, 'no built-in font for names (it has only Latin letters)');
  t.ok((await stat(pdf)).size < 200_000, `small: ${(await stat(pdf)).size} bytes`);
});

t.test('badges print: pupils by default; --types and --users choose others', async (t) => {
  const s = await school(t);
  const holders = async (o: Partial<PrintOptions>) => (await readLabels(s, await s.print(o))).map((l) => l.username);
  const pupils = PUPILS.map((p) => p.username).sort();
  t.same((await holders({})).sort(), pupils, 'no option: the pupils, and only them');
  t.same(await holders({ types: ['employee'] }), ['tess'], 'types: employee');
  t.same((await holders({ types: ['student', 'admin'] })).sort(), [...pupils, 'ada'].sort(), 'types: student, admin');
  t.same(await holders({ usernames: ['ada', 'laila'] }), ['ada', 'laila'], 'users: just those, in that order');
  t.same(await holders({ types: ['employee'], usernames: ['ada', 'tess'] }), ['tess', 'ada'], 'both: the types, then the users named');
  await t.rejects(s.print({ types: ['librarian'] }), /Al-Noor International School has no users of type librarian/);
});
