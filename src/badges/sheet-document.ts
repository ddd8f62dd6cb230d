import PDFDocument from 'pdfkit';
import { type Rect, type SheetLayout, labelPlacement } from './label-layout.js';
import { collect } from './pdf-text.js';

/**
 * One printable PDF of a sheet of cells (badge labels, emoji cards, password letters): each item drawn in its
 * cell (label-layout.ts), a page added as each fills, the finished document as bytes.
 */
export async function renderSheet<T>(layout: SheetLayout, items: readonly T[], o: {
  title: string;
  draw: (doc: PDFKit.PDFDocument, item: T, cell: Rect) => void;
  /** Drawn on each page as it is added, before its first item (a credit line). */
  onNewPage?: (doc: PDFKit.PDFDocument) => void;
  /**
   * Lets the event loop run between items, where drawing one takes long enough to hold up other work of the
   * same process (the argon2 hashes `lanyard credentials issue` runs while its cards are drawn).
   */
  yieldBetweenItems?: boolean;
}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [layout.pageWidth, layout.pageHeight],
    margin: 0,
    autoFirstPage: false,
    info: { Title: o.title, Creator: 'Lanyard', Producer: 'Lanyard' },
  });
  const done = collect(doc);
  let currentPage = -1;
  for (const [index, item] of items.entries()) {
    const { page, cell } = labelPlacement(layout, index);
    if (page !== currentPage) {
      doc.addPage();
      o.onNewPage?.(doc);
    }
    currentPage = page;
    o.draw(doc, item, cell);
    if (o.yieldBetweenItems) await new Promise((resolve) => setImmediate(resolve));
  }
  doc.end();
  return done;
}

/** A cell's dashed outline, to cut along (emoji cards, password letters). */
export function drawCutLine(doc: PDFKit.PDFDocument, cell: Rect, colour: string): void {
  doc.save().rect(cell.x, cell.y, cell.width, cell.height).lineWidth(0.5).dash(4, { space: 3 }).strokeColor(colour).stroke().restore();
}
