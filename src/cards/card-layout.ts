import { PAPER_SIZES, POINTS_PER_INCH, type Paper, type Rect, type SheetLayout } from '../badges/label-layout.js';

/**
 * Where emoji cards and password letters sit on a printed page, and where each part of an emoji card goes:
 * pure geometry in PDF points (1/72 inch), origin at the page's top-left corner, kept apart from the drawing
 * so that it can be tested and so that tests can find each card again in the text of a page.
 *
 * Emoji cards: 2 × 4 to a page (US Letter or A4), side by side with no gap, so that one cut along each
 * dashed line separates two cards (about 3.9 × 2.6 inches each, a little larger than a business card).
 * Password letters: two to a page, the top and the bottom half.
 */

/** Room around the grid that most printers can print up to: three eighths of an inch. */
export const PAGE_MARGIN = 0.375 * POINTS_PER_INCH;

export const CARD_COLUMNS = 2;
export const CARD_ROWS = 4;

/** Inside a card, between the cut line and the ink. */
export const CARD_PADDING = 12;

/** The cards of one page (the same SheetLayout as badge labels: labelPlacement finds a card's page and cell). */
export function cardSheet(paper: Paper = 'letter'): SheetLayout {
  return grid(paper, CARD_COLUMNS, CARD_ROWS);
}

/** The two halves of a page, each one password letter. */
export function letterSheet(paper: Paper = 'letter'): SheetLayout {
  return grid(paper, 1, 2);
}

function grid(paper: Paper, columns: number, rows: number): SheetLayout {
  const { width, height } = PAPER_SIZES[paper];
  const cellWidth = (width - 2 * PAGE_MARGIN) / columns;
  const cellHeight = (height - 2 * PAGE_MARGIN) / rows;
  const cells: Rect[] = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      cells.push({ x: PAGE_MARGIN + column * cellWidth, y: PAGE_MARGIN + row * cellHeight, width: cellWidth, height: cellHeight });
    }
  }
  return { paper, pageWidth: width, pageHeight: height, columns, rows, perPage: columns * rows, cells };
}

/** One of the six pictures of a card: its number, the picture, and its name under it. */
export interface PictureSlot {
  /** The number's box, left of the picture's top. */
  number: Rect;
  /** A square. */
  picture: Rect;
  /** The picture's name, centred under it. */
  label: Rect;
}

/** The parts of an emoji card, top to bottom: the pupil's name, their username, class and school, then the pictures. */
export interface CardAnatomy {
  name: Rect;
  username: Rect;
  detail: Rect;
  /** Six slots, in the order the pictures are tapped: left to right, then the second row. */
  pictures: PictureSlot[];
}

const NAME_HEIGHT = 18;
const USERNAME_HEIGHT = 14;
const DETAIL_HEIGHT = 12;
const GRID_GAP = 4; // between the detail line and the pictures
const NUMBER_WIDTH = 14;
const LABEL_HEIGHT = 10;
export const PICTURE_COLUMNS = 3;
export const PICTURE_ROWS = 2;

/** Where each part of the card in `cell` goes. */
export function cardAnatomy(cell: Rect): CardAnatomy {
  const inner = { x: cell.x + CARD_PADDING, y: cell.y + CARD_PADDING, width: cell.width - 2 * CARD_PADDING, height: cell.height - 2 * CARD_PADDING };
  const line = (top: number, height: number): Rect => ({ x: inner.x, y: top, width: inner.width, height });
  const name = line(inner.y, NAME_HEIGHT);
  const username = line(name.y + NAME_HEIGHT, USERNAME_HEIGHT);
  const detail = line(username.y + USERNAME_HEIGHT, DETAIL_HEIGHT);
  const gridTop = detail.y + DETAIL_HEIGHT + GRID_GAP;
  const slotWidth = inner.width / PICTURE_COLUMNS;
  const slotHeight = (inner.y + inner.height - gridTop) / PICTURE_ROWS;
  const side = Math.min(slotWidth - 2 * NUMBER_WIDTH, slotHeight - LABEL_HEIGHT - 2);
  const pictures = Array.from({ length: PICTURE_COLUMNS * PICTURE_ROWS }, (_, i): PictureSlot => {
    const slot = { x: inner.x + (i % PICTURE_COLUMNS) * slotWidth, y: gridTop + Math.floor(i / PICTURE_COLUMNS) * slotHeight };
    const picture = { x: slot.x + (slotWidth - side) / 2, y: slot.y, width: side, height: side };
    return {
      number: { x: picture.x - NUMBER_WIDTH, y: slot.y, width: NUMBER_WIDTH, height: NUMBER_WIDTH },
      picture,
      label: { x: slot.x, y: picture.y + side + 1, width: slotWidth, height: LABEL_HEIGHT },
    };
  });
  return { name, username, detail, pictures };
}
