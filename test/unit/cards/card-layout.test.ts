import t from 'tap';
import { type Paper, type Rect, labelPlacement, PAPER_SIZES, POINTS_PER_INCH } from '../../../src/badges/label-layout.js';
import { cardAnatomy, cardSheet, letterSheet, PAGE_MARGIN } from '../../../src/cards/card-layout.js';

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width - 1e-9 && b.x < a.x + a.width - 1e-9 && a.y < b.y + b.height - 1e-9 && b.y < a.y + a.height - 1e-9;
const inside = (inner: Rect, outer: Rect) =>
  inner.x >= outer.x - 1e-9 && inner.y >= outer.y - 1e-9
  && inner.x + inner.width <= outer.x + outer.width + 1e-9 && inner.y + inner.height <= outer.y + outer.height + 1e-9;

for (const paper of ['letter', 'a4'] as Paper[]) {
  t.test(`${paper}: eight cards a page, 2 × 4, edge to edge inside the margins`, async (t) => {
    const sheet = cardSheet(paper);
    const page = { x: 0, y: 0, width: PAPER_SIZES[paper].width, height: PAPER_SIZES[paper].height };
    t.same([sheet.columns, sheet.rows, sheet.perPage, sheet.cells.length], [2, 4, 8, 8]);
    const margins = { x: PAGE_MARGIN, y: PAGE_MARGIN, width: page.width - 2 * PAGE_MARGIN, height: page.height - 2 * PAGE_MARGIN };
    t.ok(sheet.cells.every((c) => inside(c, margins)), 'every card within the printable margins');
    t.ok(sheet.cells.every((a, i) => sheet.cells.every((b, j) => i === j || !overlaps(a, b))), 'no two cards overlap');
    const area = sheet.cells.reduce((sum, c) => sum + c.width * c.height, 0);
    t.ok(Math.abs(area - margins.width * margins.height) < 1e-6, 'and they fill the page inside the margins: one cut between two cards');
    t.ok(sheet.cells.every((c) => c.width >= 3.7 * POINTS_PER_INCH && c.height >= 2.5 * POINTS_PER_INCH), 'each at least 3.7 × 2.5 inches');
    t.same(labelPlacement(sheet, 8), { page: 1, cell: sheet.cells[0] }, 'the ninth card opens the second page');
  });

  t.test(`${paper}: a card's six pictures are large, inside the card, apart, and in reading order`, async (t) => {
    for (const cell of cardSheet(paper).cells) {
      const card = cardAnatomy(cell);
      t.equal(card.pictures.length, 6);
      const parts = [card.name, card.username, card.detail, ...card.pictures.flatMap((p) => [p.picture, p.label])];
      t.ok(parts.every((r) => inside(r, cell)), 'every part inside its card');
      t.ok(parts.every((a, i) => parts.every((b, j) => i === j || !overlaps(a, b))), 'no two parts overlap');
      t.ok(card.pictures.every((p) => p.picture.width === p.picture.height), 'pictures are square');
      t.ok(card.pictures.every((p) => p.picture.width >= 0.6 * POINTS_PER_INCH), 'and at least 0.6 inch (15 mm) a side');
      t.ok(card.pictures.every((p) => inside(p.number, cell) && p.number.x + p.number.width <= p.picture.x + 1e-9), 'each number left of its picture');
      const order = card.pictures.map((p) => [Math.round(p.picture.y), p.picture.x] as const);
      const sorted = [...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      t.same(order, sorted, 'numbered left to right, then the second row');
      t.ok(card.name.y < card.username.y && card.username.y < card.detail.y && card.detail.y < card.pictures[0]!.picture.y,
        'name, username, class and school, then the pictures');
    }
  });

  t.test(`${paper}: password letters are the two halves of a page`, async (t) => {
    const sheet = letterSheet(paper);
    t.same([sheet.perPage, sheet.cells.length], [2, 2]);
    const [top, bottom] = sheet.cells as [Rect, Rect];
    t.equal(top.y + top.height, bottom.y, 'one cut between them');
    t.ok(Math.abs(top.height - bottom.height) < 1e-9 && top.width === PAPER_SIZES[paper].width - 2 * PAGE_MARGIN, 'equal halves, full width');
  });
}
