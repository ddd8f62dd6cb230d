import { type LoadedFont, type Weight, primaryFont } from './fonts.js';
import { type TextRun, cleanLine, visualRuns } from './text-runs.js';

/**
 * Drawing Lanyard's printed sheets with pdfkit (badge sheets, emoji cards, password letters): a line of a
 * name or a school in whatever script it is written (fonts.ts, text-runs.ts), fitted to its room, and the
 * finished document as bytes.
 */

/** The document's bytes, once `doc.end()` has been called. */
export function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/** How a fitted line looks: its weight, its largest and smallest size (points), its colour. */
export interface LineStyle { weight: Weight; max: number; min: number; colour: string }

/** Where a fitted line goes: its top (`y`), its room (`width`), centred on `centreX` or starting at `left`. */
export type LinePlace = { y: number; width: number } & ({ centreX: number } | { left: number });

/**
 * One line of text, shrunk down to `min` and then shortened with an ellipsis until it fits; centred, or from
 * the left edge in a left-to-right document's way (a right-to-left name starts there too, in its own order).
 */
export function drawFitted(doc: PDFKit.PDFDocument, text: string, style: LineStyle, at: LinePlace): void {
  let runs = visualRuns(text, style.weight);
  let size = style.max;
  while (size > style.min && widthOf(runs, size) > at.width) size -= 0.5;
  // Shortened by whole characters as the reader sees them (a letter with its accents), at the end of the name.
  const clusters = Array.from(graphemes.segment(cleanLine(text)), (s) => s.segment);
  for (let keep = clusters.length - 1; widthOf(runs, size) > at.width && keep > 0; keep--) {
    runs = visualRuns(`${clusters.slice(0, keep).join('').trimEnd()}…`, style.weight);
  }
  // Smaller text is centred on the cap height the full size would have, so every label's header lines up.
  const capHeight = primaryFont(style.weight).font.capHeight / primaryFont(style.weight).font.unitsPerEm;
  const baseline = at.y + (capHeight * (style.max + size)) / 2;
  let x = 'centreX' in at ? at.centreX - widthOf(runs, size) / 2 : at.left;
  doc.fillColor(style.colour);
  for (const run of runs) {
    useFont(doc, run.font, size).text(run.text, x, baseline, { ...shaping(run), lineBreak: false, baseline: 'alphabetic' });
    x += run.advance * size;
  }
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

const widthOf = (runs: TextRun[], size: number): number => runs.reduce((sum, run) => sum + run.advance * size, 0);

/**
 * The run's font features, passed on to fontkit. Passing any makes pdfkit lay the run out whole; without,
 * it lays text out word by word and joins the words left to right, which reverses right-to-left names.
 * (pdfkit's types allow a list of features to switch on; fontkit also takes a tag → on/off object.)
 */
const shaping = (run: TextRun) => ({ features: run.font.features as unknown as PDFKit.Mixins.OpenTypeFeatures[] });

/**
 * Selects a bundled font in this document. pdfkit (≥ 0.20) takes the parsed fontkit font itself, so a font
 * file is read and parsed once per process however many sheets are made; each document embeds its own subset.
 */
export function useFont(doc: PDFKit.PDFDocument, font: LoadedFont, size: number): PDFKit.PDFDocument {
  return doc.registerFont(font.key, font.font as unknown as Buffer).font(font.key).fontSize(size);
}
