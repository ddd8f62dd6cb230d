/**
 * Where badge labels sit on a printed sheet: pure geometry, in PDF points (1/72 inch), origin at the top-left
 * corner of the page (as pdfkit draws). Kept apart from the drawing so it can be tested, and so tests can find
 * each label again in a rasterised page.
 *
 * Labels are 2-inch squares, the common square sticker size (Avery 22816-style: 3 × 4 = 12 on US Letter).
 * As many as fit with at least MIN_SPACE between them and around them; the spare room is shared out evenly
 * (margins equal gaps), so the grid is centred and each label has room to be cut out with scissors.
 */

export const POINTS_PER_INCH = 72;

export type Paper = 'letter' | 'a4';

/** Page sizes in points, portrait. */
export const PAPER_SIZES: Readonly<Record<Paper, { width: number; height: number }>> = {
  letter: { width: 8.5 * POINTS_PER_INCH, height: 11 * POINTS_PER_INCH },
  a4: { width: (210 / 25.4) * POINTS_PER_INCH, height: (297 / 25.4) * POINTS_PER_INCH },
};

/** Side of one square label. */
export const LABEL_SIZE = 2 * POINTS_PER_INCH;

/** Smallest margin and gap: a quarter inch keeps labels clear of what most printers cannot print. */
export const MIN_SPACE = 0.25 * POINTS_PER_INCH;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SheetLayout {
  paper: Paper;
  pageWidth: number;
  pageHeight: number;
  columns: number;
  rows: number;
  perPage: number;
  /** The label cells of one page, row by row, left to right. */
  cells: Rect[];
}

/** How many `size` items fit in `length` with at least `space` before, between and after them. */
function countAlong(length: number, size: number, space: number): number {
  return Math.floor((length - space) / (size + space));
}

/** Offsets of `count` items of `size` spread evenly along `length` (equal margins and gaps). */
function spread(length: number, size: number, count: number): number[] {
  const space = (length - count * size) / (count + 1);
  return Array.from({ length: count }, (_, i) => space + i * (size + space));
}

export function sheetLayout(paper: Paper = 'letter'): SheetLayout {
  const { width, height } = PAPER_SIZES[paper];
  const columns = countAlong(width, LABEL_SIZE, MIN_SPACE);
  const rows = countAlong(height, LABEL_SIZE, MIN_SPACE);
  const xs = spread(width, LABEL_SIZE, columns);
  const ys = spread(height, LABEL_SIZE, rows);
  const cells = ys.flatMap((y) => xs.map((x) => ({ x, y, width: LABEL_SIZE, height: LABEL_SIZE })));
  return { paper, pageWidth: width, pageHeight: height, columns, rows, perPage: columns * rows, cells };
}

/** Where the `index`-th label of a sheet goes: its page (from 0) and its cell on that page. */
export function labelPlacement(layout: SheetLayout, index: number): { page: number; cell: Rect } {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`not a label index: ${index}`);
  return { page: Math.floor(index / layout.perPage), cell: layout.cells[index % layout.perPage]! };
}

/** Number of pages `count` labels need. */
export const pageCount = (layout: SheetLayout, count: number): number => Math.ceil(count / layout.perPage);

/** A rectangle in points, as whole pixels of a page rasterised at `dpi` (for finding labels in an image). */
export function toPixels(rect: Rect, dpi: number): Rect {
  const k = dpi / POINTS_PER_INCH;
  const x = Math.round(rect.x * k);
  const y = Math.round(rect.y * k);
  return { x, y, width: Math.round((rect.x + rect.width) * k) - x, height: Math.round((rect.y + rect.height) * k) - y };
}
