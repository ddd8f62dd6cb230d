import t from 'tap';
import { badgeName } from '../../../src/badges/badge-name.js';
import { fontFor, loadedFonts, primaryFont } from '../../../src/badges/fonts.js';
import { cleanLine, visualRuns } from '../../../src/badges/text-runs.js';

/** Runs as "font: text" (text in reading order inside each run), left to right. */
const runs = (line: string) => visualRuns(line, 'bold').map((r) => `${r.font.key.replace(/-Bold\.(ttf|otf)$/, '')}: ${r.text}`);

t.test('fonts: read once per process, the 8 MB Chinese one only when a name needs it', async (t) => {
  runs('Анна Ιβάνοβα');
  runs('ليلى');
  t.notOk(loadedFonts().some((f) => f.startsWith('NotoSansHans')), 'Latin, Cyrillic, Greek and Arabic names: not read');
  runs('王小明');
  t.same(loadedFonts().filter((f) => f.startsWith('NotoSansHans')), ['NotoSansHans-Bold.otf'], 'a Chinese name: read');
  t.equal(fontFor('A'.codePointAt(0)!, 'bold'), primaryFont('bold'), 'the same parsed font every time');
  t.equal(fontFor(0x5c0f, 'regular')?.key, 'NotoSansHans-Regular.otf');
  t.equal(fontFor(0xac00, 'regular'), undefined, 'Hangul: none');
});

t.test('each script in the first font that has it; spaces and punctuation stay with their neighbours', async (t) => {
  t.same(runs('Nguyễn Thị Hồng'), ['NotoSans: Nguyễn Thị Hồng']);
  t.same(runs('Анна Иванова-Νίκος'), ['NotoSans: Анна Иванова-Νίκος'], 'Cyrillic and Greek: Noto Sans');
  t.same(runs('王小明'), ['NotoSansHans: 王小明']);
  t.same(runs('ليلى حسن'), ['NotoNaskhArabic: ليلى حسن'], 'one run, in reading order: fontkit lays it out right to left');
  t.same(runs('Sara 王'), ['NotoSans: Sara ', 'NotoSansHans: 王']);
});

t.test('bidirectional order (UAX #9): runs left to right as printed', async (t) => {
  t.same(runs('Omar الفاروق'), ['NotoSans: Omar ', 'NotoNaskhArabic: الفاروق'], 'a left-to-right name: Omar on the left');
  t.same(runs('مريم Smith'), ['NotoSans: Smith', 'NotoNaskhArabic: مريم '], 'a right-to-left name: Smith on the left');
  t.same(runs('דוד Cohen 2'), ['NotoSans: Cohen 2', 'NotoSansHebrew: דוד '], 'Hebrew too');
  // Arabic-Indic digits read left to right inside Arabic, but fontkit would reverse their (Arabic) script:
  // drawn one by one in visual order; a bracket in right-to-left text is mirrored.
  t.same(runs('علي ١٢'), ['NotoNaskhArabic: ١', 'NotoNaskhArabic: ٢', 'NotoNaskhArabic: علي ']);
  t.same(runs('ليلى (علي)'), ['NotoSans: (', 'NotoNaskhArabic: علي', 'NotoSans: )', 'NotoNaskhArabic: ليلى '],
    'brackets swap sides in a right-to-left name');
});

t.test('what no font has is `?` (or the bare letter); text is NFC on one line; invisible controls dropped', async (t) => {
  t.same(runs('김민준 Kim'), ['NotoSans: ??? Kim'], 'Hangul is not bundled: a visible ?, not an empty box');
  t.same(runs('Nguye\u0302\u0303n'), ['NotoSans: Nguyễn'], 'decomposed accents are composed (one glyph, right text)');
  t.same(runs('\u200eAnna\u200f\tBell\n'), runs('Anna Bell'), 'direction marks and control characters print nothing');
  t.same(runs('\u202eAnna\u202c'), ['NotoSans: a', 'NotoSans: n', 'NotoSans: n', 'NotoSans: A'], 'an explicit override is obeyed');
  t.equal(cleanLine('  Anna \u00a0 Bell  '), 'Anna Bell');
});

t.test('badge names: family name first, no space, for names in Chinese characters, kana or Hangul', async (t) => {
  t.equal(badgeName({ givenName: '小明', familyName: '王' }), '王小明');
  t.equal(badgeName({ givenName: 'はると', familyName: '山田' }), '山田はると');
  t.equal(badgeName({ givenName: 'Xiaoming', familyName: 'Wang' }), 'Xiaoming Wang');
  t.equal(badgeName({ givenName: '小明', familyName: 'Wang' }), '小明 Wang', 'mixed scripts: as given');
});
