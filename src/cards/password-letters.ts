import { LanyardError } from '../errors.js';
import type { Paper, Rect } from '../badges/label-layout.js';
import { primaryFont } from '../badges/fonts.js';
import { drawFitted, useFont } from '../badges/pdf-text.js';
import { drawCutLine, renderSheet } from '../badges/sheet-document.js';
import { CARD_PADDING, letterSheet } from './card-layout.js';

/**
 * Printable password letters: one per half page (cut along the dashed line), each with the person's name,
 * school, username and password, and how to sign in. Names and schools in any script (../badges/pdf-text.ts);
 * the username and the password in Courier, where l and 1, O and 0 look different (generated passwords
 * leave those out anyway: src/accounts/user-password.ts).
 */

export interface PasswordLetter {
  /** As printed (badgeName). */
  name: string;
  school: string;
  /** The class, when the letters were printed for one. */
  detail?: string | undefined;
  username: string;
  password: string;
}

const PAD = 2 * CARD_PADDING;
const SCHOOL = { weight: 'bold', max: 12, min: 8, colour: '#555555' } as const;
const NAME = { weight: 'bold', max: 22, min: 11, colour: '#1a1a1a' } as const;
const DETAIL = { weight: 'regular', max: 10, min: 7, colour: '#555555' } as const;
const FIELD = { label: 10, value: 17, colour: '#1a1a1a' };
const BODY = { size: 10, leading: 3, colour: '#333333' };
const CUT_LINE = '#b0b0b0';

export async function renderPasswordLetters(
  letters: readonly PasswordLetter[], o: { paper?: Paper; signInAt: string; title?: string },
): Promise<Buffer> {
  if (letters.length === 0) throw new LanyardError('letters_none', 'there are no password letters to print', 400, true);
  return renderSheet(letterSheet(o.paper ?? 'letter'), letters, {
    title: o.title ?? 'Lanyard password letters',
    draw: (doc, letter, cell) => drawLetter(doc, letter, cell, o.signInAt),
  });
}

function drawLetter(doc: PDFKit.PDFDocument, letter: PasswordLetter, cell: Rect, signInAt: string): void {
  drawCutLine(doc, cell, CUT_LINE);
  const left = cell.x + PAD;
  const width = cell.width - 2 * PAD;
  let y = cell.y + PAD;
  drawFitted(doc, letter.school, SCHOOL, { left, y, width });
  y += 26;
  drawFitted(doc, letter.name, NAME, { left, y, width });
  y += 30;
  if (letter.detail) drawFitted(doc, letter.detail, DETAIL, { left, y, width });
  y += 28;
  y = drawField(doc, 'Username', letter.username, left, y, width);
  y = drawField(doc, 'Password', letter.password, left, y, width);
  y += 10;
  useFont(doc, primaryFont('bold'), BODY.size + 1).fillColor(BODY.colour).text('How to sign in', left, y, { width });
  useFont(doc, primaryFont('regular'), BODY.size).fillColor(BODY.colour);
  doc.text(`1. Open ${signInAt}, or the app that asks you to sign in with Lanyard.`, { width, lineGap: BODY.leading });
  doc.text(`2. Choose your school, then sign in with your username and password.`, { width, lineGap: BODY.leading });
  doc.text('3. Type them exactly as printed here: the hyphens are part of the password.', { width, lineGap: BODY.leading });
  doc.moveDown(0.6);
  doc.text('Keep your password to yourself and keep this letter somewhere safe. '
    + 'If someone else may know your password, ask your teacher or the school office for a new one.', { width, lineGap: BODY.leading });
}

/** A label and its value on one line, the value in Courier-Bold, shrunk to fit. Returns the next line's top. */
function drawField(doc: PDFKit.PDFDocument, label: string, value: string, left: number, y: number, width: number): number {
  const labelWidth = 80;
  useFont(doc, primaryFont('regular'), FIELD.label).fillColor('#555555').text(label, left, y + (FIELD.value - FIELD.label) * 0.6, { lineBreak: false });
  let size = FIELD.value;
  doc.font('Courier-Bold');
  while (size > 8 && doc.fontSize(size).widthOfString(value) > width - labelWidth) size -= 0.5;
  doc.fillColor(FIELD.colour).text(value, left + labelWidth, y + (FIELD.value - size) / 2, { lineBreak: false });
  return y + FIELD.value + 12;
}
