import t from 'tap';
import {
  LABEL_SIZE,
  MIN_SPACE,
  POINTS_PER_INCH,
  type Paper,
  type Rect,
  labelPlacement,
  pageCount,
  sheetLayout,
  toPixels,
} from '../../../src/badges/label-layout.js';

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

t.test('US Letter: 3 × 4 two-inch squares, 12 a page (Avery 22816-style)', async (t) => {
  const layout = sheetLayout('letter');
  t.same([layout.pageWidth, layout.pageHeight], [612, 792], '8.5 × 11 in');
  t.equal(layout.columns, 3);
  t.equal(layout.rows, 4);
  t.equal(layout.perPage, 12);
  t.equal(layout.cells.length, 12);
  const twoInches = 2 * POINTS_PER_INCH;
  t.ok(layout.cells.every((c) => c.width === twoInches && c.height === twoInches), '2-inch squares');
});

t.test('A4: the same squares, 3 × 5', async (t) => {
  const layout = sheetLayout('a4');
  t.equal(Math.round(layout.pageWidth), 595);
  t.equal(Math.round(layout.pageHeight), 842);
  t.same([layout.columns, layout.rows, layout.perPage], [3, 5, 15]);
});

t.test('letter is the default paper', async (t) => {
  t.same(sheetLayout(), sheetLayout('letter'));
});

for (const paper of ['letter', 'a4'] as Paper[]) {
  t.test(`${paper}: every cell on the page, clear of the edges, of each other, and centred`, async (t) => {
    const { cells, pageWidth, pageHeight } = sheetLayout(paper);
    const offPage = cells.filter(
      (c) =>
        c.x < MIN_SPACE ||
        c.y < MIN_SPACE ||
        c.x + c.width > pageWidth - MIN_SPACE ||
        c.y + c.height > pageHeight - MIN_SPACE,
    );
    t.same(offPage, [], 'every cell at least a quarter inch inside the page');
    const clashes = cells.flatMap((a, i) => cells.slice(i + 1).filter((b) => overlaps(a, b)).map((b) => [a, b]));
    t.same(clashes, [], 'no two cells overlap');
    const xs = cells.map((c) => c.x);
    const ys = cells.map((c) => c.y);
    const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;
    t.ok(close(Math.min(...xs), pageWidth - Math.max(...xs) - LABEL_SIZE), 'left margin = right margin');
    t.ok(close(Math.min(...ys), pageHeight - Math.max(...ys) - LABEL_SIZE), 'top margin = bottom margin');
  });
}

t.test('cells run row by row, left to right', async (t) => {
  const { cells, columns } = sheetLayout('letter');
  t.ok(cells[0]!.x < cells[1]!.x && cells[0]!.y === cells[1]!.y, 'second label to the right of the first');
  t.ok(cells[columns]!.y > cells[0]!.y && cells[columns]!.x === cells[0]!.x, 'fourth label starts the next row');
});

t.test('placement and page breaks', async (t) => {
  const layout = sheetLayout('letter');
  t.same(labelPlacement(layout, 0), { page: 0, cell: layout.cells[0] });
  t.same(labelPlacement(layout, 11), { page: 0, cell: layout.cells[11] });
  t.same(labelPlacement(layout, 12), { page: 1, cell: layout.cells[0] }, 'the 13th label starts page 2');
  t.same(labelPlacement(layout, 13), { page: 1, cell: layout.cells[1] });
  t.same(labelPlacement(sheetLayout('a4'), 15).page, 1, 'A4 breaks after 15');
  t.throws(() => labelPlacement(layout, -1), RangeError);
  t.throws(() => labelPlacement(layout, 1.5), RangeError);

  t.equal(pageCount(layout, 0), 0);
  t.equal(pageCount(layout, 1), 1);
  t.equal(pageCount(layout, 12), 1);
  t.equal(pageCount(layout, 13), 2);
  t.equal(pageCount(layout, 14), 2);
  t.equal(pageCount(layout, 25), 3);
});

t.test('toPixels finds a cell in a rasterised page', async (t) => {
  const cell = sheetLayout('letter').cells[4]!;
  const at72 = toPixels(cell, 72);
  const expected = { x: Math.round(cell.x), y: Math.round(cell.y), width: 144, height: 144 };
  t.same(at72, expected, 'at 72 dpi a point is a pixel');
  const px = toPixels(cell, 150);
  t.same([px.width, px.height], [300, 300], 'a 2-inch label is 300 px at 150 dpi');
  t.ok(Object.values(px).every(Number.isInteger), 'whole pixels');
  const page = toPixels({ x: 0, y: 0, width: 612, height: 792 }, 150);
  t.ok(px.x + px.width <= page.width && px.y + px.height <= page.height, 'inside the 1275 × 1650 px page');
});
