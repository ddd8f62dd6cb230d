import type PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { LanyardError } from '../errors.js';
import { EMOJI_PASSWORD_LENGTH } from '../formats/emoji-bank.js';
import type { Paper, Rect } from '../badges/label-layout.js';
import { primaryFont } from '../badges/fonts.js';
import { drawFitted, useFont } from '../badges/pdf-text.js';
import { drawCutLine, renderSheet } from '../badges/sheet-document.js';
import { CARD_PADDING, cardAnatomy, cardSheet, PAGE_MARGIN } from './card-layout.js';
import { EMOJI_ART_CREDIT, emojiSvg } from './emoji-art.js';

/**
 * The printable emoji cards of a class: one card per pupil, to cut out and hand over, with the pupil's
 * name, the username they type, their class and school, and their six pictures, large and numbered 1 to 6
 * in the order they are tapped, each with its name under it (for the adult reading it out, and for anyone
 * who cannot tell two pictures apart) — the sandbox page's picture cards, on paper. Names in any script
 * (../badges/pdf-text.ts); the pictures are Twemoji artwork as vectors (emoji-art.ts). Where everything
 * goes is card-layout.ts'.
 */

export interface EmojiCard {
  /** The pupil's name as printed (badgeName: family name first where that is the custom). */
  name: string;
  username: string;
  /** The class and the school, e.g. "3B · River School". */
  detail: string;
  /** The six emoji-bank names, in order. */
  pictures: readonly string[];
}

const NAME = { weight: 'bold', max: 15, min: 9, colour: '#1a1a1a' } as const;
const DETAIL = { weight: 'regular', max: 8.5, min: 6, colour: '#555555' } as const;
const LABEL = { weight: 'regular', max: 7.5, min: 5.5, colour: '#333333' } as const;
const NUMBER = { weight: 'bold', size: 11, colour: '#1a1a1a' } as const;
// Usernames are ASCII (config/schema.json): the built-in monospaced Courier tells l from 1 and O from 0.
const USERNAME = { font: 'Courier-Bold', label: 'Courier', size: 10.5, colour: '#1a1a1a' };
const CREDIT = { size: 6, colour: '#777777' };
const CUT_LINE = '#b0b0b0';

export async function renderEmojiCards(cards: readonly EmojiCard[], o: { paper?: Paper; title?: string } = {}): Promise<Buffer> {
  if (cards.length === 0) throw new LanyardError('cards_none', 'there are no emoji cards to print', 400, true);
  const bad = cards.find((c) => c.pictures.length !== EMOJI_PASSWORD_LENGTH);
  if (bad) throw new Error(`an emoji card needs ${EMOJI_PASSWORD_LENGTH} pictures (${bad.username} has ${bad.pictures.length})`);
  const sheet = cardSheet(o.paper ?? 'letter');
  return renderSheet(sheet, cards, {
    title: o.title ?? 'Lanyard emoji cards',
    onNewPage: (doc) => drawCredit(doc, sheet.pageHeight),
    draw: drawCard,
    // A card takes tens of milliseconds: between cards, the event loop hands finished argon2 hashes on and
    // starts the next (`lanyard credentials issue` hashes while it draws).
    yieldBetweenItems: true,
  });
}

function drawCard(doc: PDFKit.PDFDocument, card: EmojiCard, cell: Rect): void {
  drawCutLine(doc, cell, CUT_LINE);
  const parts = cardAnatomy(cell);
  drawFitted(doc, card.name, NAME, { left: parts.name.x, y: parts.name.y, width: parts.name.width });
  drawUsername(doc, card.username, parts.username);
  drawFitted(doc, card.detail, DETAIL, { left: parts.detail.x, y: parts.detail.y, width: parts.detail.width });
  card.pictures.forEach((name, i) => {
    const slot = parts.pictures[i]!;
    useFont(doc, primaryFont(NUMBER.weight), NUMBER.size).fillColor(NUMBER.colour)
      .text(String(i + 1), slot.number.x, slot.number.y, { lineBreak: false });
    SVGtoPDF(doc as unknown as typeof PDFDocument, emojiSvg(name), slot.picture.x, slot.picture.y, {
      width: slot.picture.width, height: slot.picture.height, assumePt: true,
    });
    drawFitted(doc, name, LABEL, { centreX: slot.label.x + slot.label.width / 2, y: slot.label.y, width: slot.label.width - 4 });
  });
}

/** "Username: ada.jones", the username in Courier so that every character is unmistakable. */
function drawUsername(doc: PDFKit.PDFDocument, username: string, at: Rect): void {
  const label = 'Username: ';
  doc.font(USERNAME.label).fontSize(USERNAME.size - 1.5).fillColor('#555555');
  const labelWidth = doc.widthOfString(label);
  doc.text(label, at.x, at.y + 1.5, { lineBreak: false });
  let size = USERNAME.size;
  doc.font(USERNAME.font);
  while (size > 6 && doc.fontSize(size).widthOfString(username) > at.width - labelWidth) size -= 0.5;
  doc.fillColor(USERNAME.colour).text(username, at.x + labelWidth, at.y + (USERNAME.size - size), { lineBreak: false });
}

/** The artwork's attribution (CC-BY 4.0), in the bottom margin of every page. */
function drawCredit(doc: PDFKit.PDFDocument, pageHeight: number): void {
  doc.font('Helvetica').fontSize(CREDIT.size).fillColor(CREDIT.colour)
    .text(EMOJI_ART_CREDIT, PAGE_MARGIN + CARD_PADDING, pageHeight - PAGE_MARGIN / 2 - CREDIT.size / 2, { lineBreak: false });
}
