import { labelPlacement } from '../../src/badges/label-layout.js';
import type { Paper } from '../../src/badges/label-layout.js';
import { cardAnatomy, cardSheet } from '../../src/cards/card-layout.js';
import { pdfText } from './badge-pdf.js';

/** One emoji card as printed, read back: its text, the username on it, the numbers 1 to 6 and the six picture names. */
export interface ReadCard {
  text: string;
  username: string | undefined;
  numbers: string[];
  pictures: string[];
}

/** Each card's username and six picture names, read back from a PDF of emoji cards (poppler), in print order. */
export async function readCards(pdf: string, count: number, paper: Paper = 'letter'): Promise<ReadCard[]> {
  const sheet = cardSheet(paper);
  const textIn = pdfText(pdf); // each page read once
  return Promise.all(Array.from({ length: count }, async (_, index) => {
    const { page, cell } = labelPlacement(sheet, index);
    const text = await textIn(page, cell);
    const slots = cardAnatomy(cell).pictures;
    return {
      text,
      username: /Username: (\S+)/.exec(text)?.[1],
      numbers: await Promise.all(slots.map(async (slot) => (await textIn(page, slot.number)).trim())),
      pictures: await Promise.all(slots.map(async (slot) => (await textIn(page, slot.label)).trim())),
    };
  }));
}
