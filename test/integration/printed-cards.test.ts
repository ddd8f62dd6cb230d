import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import t, { type Test } from 'tap';
import { labelPlacement, toPixels } from '../../src/badges/label-layout.js';
import { cardAnatomy, cardSheet } from '../../src/cards/card-layout.js';
import { type EmojiCard, renderEmojiCards } from '../../src/cards/emoji-cards.js';
import { EMOJI_BANK, generateEmojiPassword } from '../../src/formats/emoji-bank.js';
import { crop, run, textIn } from '../helpers/badge-pdf.js';

/**
 * Emoji cards and password letters as a printer sees them: the text read back with pdftotext inside each
 * card (poppler-utils), and each picture's square rasterised (pdftoppm) to show it holds a coloured picture.
 */
const DPI = 72;

async function tempDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lanyard-cards-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const NAMES = ['Ada Jones', 'Zoë Ångström', 'Łukasz Wróblewski', 'Priya Ramanathan', 'Ben Li', 'Chloé Dubois', 'Yusuf Ahmed', 'Hana Tanaka', 'Sam Okafor'];

/** How far a pixel is from grey: pictures have many such pixels, text and cut lines none. */
const chroma = (d: Uint8ClampedArray, i: number) => Math.max(d[i]!, d[i + 1]!, d[i + 2]!) - Math.min(d[i]!, d[i + 1]!, d[i + 2]!);
/** Whether a pixel has ink on it. */
const inked = (d: Uint8ClampedArray, i: number) => Math.min(d[i]!, d[i + 1]!, d[i + 2]!) < 230;

t.test('emoji cards: each card has its name, username, class, the numbers 1–6 and the six pictures with their names', async (t) => {
  const dir = await tempDir(t);
  // The first card shows the whole bank's first six pictures, so every test run sees known names in order.
  const cards: EmojiCard[] = NAMES.map((name, i) => ({
    name, username: `pupil.${i + 1}`, detail: 'Class 3B · River School',
    pictures: i === 0 ? EMOJI_BANK.slice(0, 6).map(([n]) => n) : generateEmojiPassword(),
  }));
  const pdf = join(dir, 'cards.pdf');
  await writeFile(pdf, await renderEmojiCards(cards, { title: 'Lanyard emoji cards — River School' }));

  const { stdout: info } = await run('pdfinfo', [pdf]);
  t.match(info, /^Title:\s+Lanyard emoji cards — River School$/m);
  t.match(info, /^Pages:\s+2$/m, '8 + 1 cards: two pages');
  t.match(info, /^Page size:\s+612 x 792 pts/m, 'US Letter by default');

  await run('pdftoppm', ['-r', `${DPI}`, '-png', pdf, join(dir, 'page')]);
  const pngs = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
  const pages = await Promise.all(pngs.map(async (f) => PNG.sync.read(await readFile(join(dir, f)))));

  const sheet = cardSheet('letter');
  for (const [index, card] of cards.entries()) {
    const { page, cell } = labelPlacement(sheet, index);
    const text = await textIn(pdf, page, cell);
    t.ok(text.includes(card.name), `card ${index + 1}: ${card.name}`);
    t.match(text, new RegExp(`Username: ${card.username.replace('.', '\\.')}`), `card ${index + 1}: the username`);
    t.ok(text.includes('Class 3B · River School'), `card ${index + 1}: class and school`);
    const anatomy = cardAnatomy(cell);
    let coloured = 0;
    for (const [i, slot] of anatomy.pictures.entries()) {
      t.match(await textIn(pdf, page, slot.number), new RegExp(`^${i + 1}\\s*$`), `card ${index + 1}: number ${i + 1} beside picture ${i + 1}`);
      t.equal((await textIn(pdf, page, slot.label)).trim(), card.pictures[i], `card ${index + 1}: picture ${i + 1} named ${card.pictures[i]}`);
      const px = toPixels(slot.picture, DPI);
      const pixels = crop(pages[page]!, px);
      let ink = 0;
      for (let p = 0; p < pixels.length; p += 4) {
        if (inked(pixels, p)) ink += 1;
        if (chroma(pixels, p) > 60) coloured += 1;
      }
      t.ok(ink > (px.width * px.height) / 10, `card ${index + 1}: picture ${i + 1} is drawn in its square (${ink} of ${px.width * px.height} pixels inked)`);
    }
    t.ok(coloured > 0.15 * anatomy.pictures.length * (toPixels(anatomy.pictures[0]!.picture, DPI).width ** 2), `card ${index + 1}: in colour`);
  }
  t.same(cards[0]!.pictures, ['dog', 'cat', 'mouse', 'rabbit', 'fox', 'bear']);
  for (const page of [0, 1]) {
    const { stdout } = await run('pdftotext', ['-f', `${page + 1}`, '-l', `${page + 1}`, pdf, '-']);
    t.match(stdout, /Pictures: Twemoji by Twitter, Inc and other contributors, CC-BY 4\.0/, `page ${page + 1} credits the artwork`);
  }
});

t.test('emoji cards on A4; a card needs six pictures', async (t) => {
  const dir = await tempDir(t);
  const pdf = join(dir, 'cards.pdf');
  await writeFile(pdf, await renderEmojiCards([{ name: 'Ada', username: 'ada', detail: 'River School', pictures: generateEmojiPassword() }], { paper: 'a4' }));
  t.match((await run('pdfinfo', [pdf])).stdout, /^Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/m);
  await t.rejects(renderEmojiCards([{ name: 'Ada', username: 'ada', detail: '', pictures: ['dog'] }]), /needs 6 pictures \(ada has 1\)/);
  await t.rejects(renderEmojiCards([]), /no emoji cards/);
});
