import QRCode from 'qrcode';
import { LanyardError } from '../errors.js';
import { type Paper, type Rect, sheetLayout } from './label-layout.js';
import { drawFitted } from './pdf-text.js';
import { renderSheet } from './sheet-document.js';

/**
 * The printable sheet of magic badges: one 2-inch square label per pupil with their name, their organisation,
 * a QR code to hold up to the camera and the same code typed out, for when there is no camera.
 * Names and schools are set in the Noto fonts that come with Lanyard, in whatever script they are written
 * (`fonts.ts`, `text-runs.ts`, drawn by `pdf-text.ts`; pdfkit embeds only the glyphs used); the code in the built-in Courier, and
 * the QR code as vector modules: no downloads, no network, crisp at any printer resolution. Where each
 * label goes is `label-layout.ts`' business.
 */

export interface BadgeLabel {
  name: string;
  organisation: string;
  /** The code as it should be typed, already grouped (e.g. `K7QF-3MZT-…`); printed exactly as given. */
  code: string;
  /** What the QR code carries. */
  qrPayload: string;
}

// Label anatomy, in points (1/72 inch), from the label's top-left corner.
const PAD = 8; // keeps ink clear of an imprecise cut or a label that sits a little off on the sheet
const NAME = { weight: 'bold', max: 14, min: 8, colour: '#1a1a1a', gap: 16 } as const;
const ORG = { weight: 'regular', max: 7, min: 5.5, colour: '#555555', gap: 8 } as const;
// Codes are Crockford base32 (digits and capitals): the built-in monospaced Courier has them all.
const CODE = { font: 'Courier-Bold', max: 8, min: 5, colour: '#1a1a1a', leading: 9.5 };
// Courier's ascent (per 1000 units of size) from the built-in font's AFM file, to place the code by its ink.
const COURIER_ASCENT = 0.629;
// SPEC: ISO/IEC 18004 — a quiet zone of four modules around the symbol.
const QUIET_ZONE_MODULES = 4;
// M (15% recovery), not Q: a badge payload (30 alphanumeric characters) is then a version 2 symbol (25 × 25)
// instead of version 3 (29 × 29), so each module is 16% larger (≈ 1 mm), which is what a webcam needs most.
const ERROR_CORRECTION = 'M';
const CUT_LINE = '#c4c4c4';

export async function renderBadgeSheet(labels: BadgeLabel[], options: { paper?: Paper } = {}): Promise<Buffer> {
  if (labels.length === 0) throw new LanyardError('badges_none', 'there are no badges to print', 400, true);
  const layout = sheetLayout(options.paper ?? 'letter');
  const organisations = [...new Set(labels.map((l) => l.organisation))].join(', ');
  return renderSheet(layout, labels, { title: `Lanyard badges — ${organisations}`, draw: drawLabel });
}

function drawLabel(doc: PDFKit.PDFDocument, label: BadgeLabel, cell: Rect): void {
  const inner = cell.width - 2 * PAD;
  const centreX = cell.x + cell.width / 2;
  doc.save().roundedRect(cell.x, cell.y, cell.width, cell.height, 6).lineWidth(0.5).dash(3, { space: 2 });
  doc.strokeColor(CUT_LINE).stroke().restore();

  let y = cell.y + PAD;
  drawFitted(doc, label.name, NAME, { centreX, y, width: inner });
  y += NAME.gap;
  drawFitted(doc, label.organisation, ORG, { centreX, y, width: inner });
  y += ORG.gap;

  const lines = codeLines(doc, label.code, inner);
  const codeTop = cell.y + cell.height - PAD - (lines.text.length - 1) * lines.leading - lines.size * COURIER_ASCENT;
  const box = Math.min(codeTop - y, cell.width); // the quiet zone may take the padding (both white), never the text
  drawQr(doc, label.qrPayload, centreX - box / 2, y, box);
  lines.text.forEach((line, i) => {
    doc.font(CODE.font).fontSize(lines.size).fillColor(CODE.colour);
    doc.text(line, centreX - doc.widthOfString(line) / 2, codeTop + i * lines.leading, { lineBreak: false });
  });
}

/** The typed code: one line if it fits at full size, else split between its groups, else smaller. */
function codeLines(doc: PDFKit.PDFDocument, code: string, width: number) {
  doc.font(CODE.font).fontSize(CODE.max);
  const groups = code.split('-');
  const half = Math.ceil(groups.length / 2);
  const text =
    doc.widthOfString(code) <= width || groups.length < 2
      ? [code]
      : [`${groups.slice(0, half).join('-')}-`, groups.slice(half).join('-')];
  let size = CODE.max;
  while (size > CODE.min && Math.max(...text.map((t) => doc.fontSize(size).widthOfString(t))) > width) size -= 0.5;
  return { text, size, leading: (CODE.leading * size) / CODE.max };
}

/** The QR symbol with its quiet zone, filling a `box`-sized square; dark modules merged into runs per row. */
function drawQr(doc: PDFKit.PDFDocument, payload: string, x: number, y: number, box: number): void {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: ERROR_CORRECTION });
  const unit = box / (modules.size + 2 * QUIET_ZONE_MODULES);
  const origin = { x: x + QUIET_ZONE_MODULES * unit, y: y + QUIET_ZONE_MODULES * unit };
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      const start = col;
      while (col + 1 < modules.size && modules.get(row, col + 1)) col++;
      doc.rect(origin.x + start * unit, origin.y + row * unit, (col - start + 1) * unit, unit);
    }
  }
  doc.fillColor('#000000').fill(); // one path: no hairline seams between modules when rasterised
}
