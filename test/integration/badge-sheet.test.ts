import { randomInt } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import t from 'tap';
import { type BadgeLabel, renderBadgeSheet } from '../../src/badges/badge-sheet.js';
import { labelPlacement, sheetLayout, toPixels } from '../../src/badges/label-layout.js';
import { crop, jsQR, run, textIn } from '../helpers/badge-pdf.js';
import { projectRoot } from '../../src/package-files.js';

/**
 * The sheet as a printer would see it: rasterised by poppler (pdftoppm, Debian package poppler-utils), each
 * label cut out of the image and its QR code read back with jsQR; the printed text read with pdftotext.
 */
const DPI = 150;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ARTIFACTS = join(projectRoot, 'test-artifacts');

const NAMES = [
  'Amira Okonkwo-Fitzgerald', 'Ben Li', 'Chloé Dubois', 'Łukasz Wróblewski', 'Zoë Ng', 'Oliver Smith',
  'Priya Ramanathan', 'Sam', 'Yusuf Ahmed', 'Hana Tanaka', "Finn O'Brien", 'Siobhán Ní Bhriain', 'Mateo García',
  'Grace Adeyemi',
];

function randomLabel(name: string, organisation: string): BadgeLabel {
  const code = Array.from({ length: 26 }, () => CROCKFORD[randomInt(CROCKFORD.length)]).join('');
  return { name, organisation, code: code.match(/.{1,4}/g)!.join('-'), qrPayload: `LB1:${code}` };
}



t.test('a class of 14: two Letter pages, every QR code reads back, every name and code printed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'lanyard-badges-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const labels = NAMES.map((name) => randomLabel(name, "St Mary's Primary School"));
  const pdf = join(dir, 'badges.pdf');
  await writeFile(pdf, await renderBadgeSheet(labels));

  const { stdout: info } = await run('pdfinfo', [pdf]);
  t.match(info, /^Title:\s+Lanyard badges — St Mary's Primary School$/m, 'PDF title names the organisation');
  t.match(info, /^Pages:\s+2$/m, '12 + 2 labels: two pages');
  t.match(info, /^Page size:\s+612 x 792 pts/m, 'US Letter');

  await run('pdftoppm', ['-r', `${DPI}`, '-png', pdf, join(dir, 'page')]);
  const pngs = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
  t.equal(pngs.length, 2, 'two page images');
  const pages = await Promise.all(pngs.map(async (f) => PNG.sync.read(await readFile(join(dir, f)))));
  await mkdir(ARTIFACTS, { recursive: true });
  await writeFile(join(ARTIFACTS, 'badges-page-1.png'), PNG.sync.write(pages[0]!));

  const layout = sheetLayout('letter');
  for (const [index, label] of labels.entries()) {
    const { page, cell } = labelPlacement(layout, index);
    const px = toPixels(cell, DPI);
    const qr = jsQR(crop(pages[page]!, px), px.width, px.height);
    t.equal(qr?.data, label.qrPayload, `label ${index + 1} (page ${page + 1}): its QR code decodes to its payload`);

    const text = await textIn(pdf, page, cell);
    t.ok(text.includes(label.name), `label ${index + 1} shows ${label.name}, every letter as written`);
    t.ok(text.includes(label.organisation), `label ${index + 1} shows the organisation`);
    // Too wide for one line at a readable size, the code breaks after a dash: joined again it is exactly as given.
    t.ok(text.replace(/-\s*\n/g, '-').includes(label.code), `label ${index + 1} shows its code ${label.code}`);
  }
});

t.test('A4: 15 a page, same squares', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'lanyard-badges-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const labels = Array.from({ length: 16 }, (_, i) => randomLabel(`Pupil ${i + 1}`, 'Ysgol Gymraeg'));
  const pdf = join(dir, 'badges.pdf');
  await writeFile(pdf, await renderBadgeSheet(labels, { paper: 'a4' }));
  const { stdout: info } = await run('pdfinfo', [pdf]);
  t.match(info, /^Pages:\s+2$/m, '15 + 1');
  t.match(info, /^Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/m);
  const last = labelPlacement(sheetLayout('a4'), 15);
  t.match(await textIn(pdf, last.page, last.cell), /Pupil 16/, 'the 16th label opens page 2');
});

t.test('a name too long for the label is shortened, never spilt onto its neighbour', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'lanyard-badges-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const long = 'Maximiliana Theodora Featherstonehaugh-Smythe-Montgomery';
  const pdf = join(dir, 'badges.pdf');
  await writeFile(pdf, await renderBadgeSheet([randomLabel(long, 'School'), randomLabel('Ben Li', 'School')]));
  const [first, second] = [0, 1].map((i) => labelPlacement(sheetLayout('letter'), i).cell);
  t.match(await textIn(pdf, 0, first!), /Maximiliana .*…/, 'ends with an ellipsis');
  t.notMatch(await textIn(pdf, 0, second!), /Maximiliana|Smythe|Montgomery/, 'nothing of it on the next label');
});

t.test('nothing to print is refused', async (t) => {
  await t.rejects(renderBadgeSheet([]), { name: 'LanyardError', code: 'badges_none', statusCode: 400 });
});
