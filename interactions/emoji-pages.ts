import { EMOJI_BANK } from '../src/formats/emoji-bank.js';

/**
 * The emoji keyboard's pages: the bank (src/formats/emoji-bank.ts, whose order never changes) cut where its
 * kinds of pictures change, so that one page fits a phone's screen and a pupil's picture is one tab away.
 * Every picture is on exactly one page (test/unit/interactions/emoji-pages.test.ts): the pages only show the
 * bank, the password space stays 84^6.
 */
export const EMOJI_PAGES = [
  { id: 'animals', icon: '🐶', from: 0, to: 28 },
  { id: 'food', icon: '🍎', from: 28, to: 48 },
  { id: 'nature', icon: '🌈', from: 48, to: 60 },
  { id: 'things', icon: '🚗', from: 60, to: 84 },
] as const;

export type EmojiPageId = (typeof EMOJI_PAGES)[number]['id'];

export const FIRST_PAGE: EmojiPageId = EMOJI_PAGES[0].id;

/** The pictures of a page, as [name, glyph] pairs in the bank's order. */
export const pagePictures = (page: (typeof EMOJI_PAGES)[number]) => EMOJI_BANK.slice(page.from, page.to);

export const isEmojiPage = (id: unknown): id is EmojiPageId => EMOJI_PAGES.some((p) => p.id === id);

/** The page a picture is on (undefined for a name not in the bank). */
export function pageOf(name: string): EmojiPageId | undefined {
  const index = EMOJI_BANK.findIndex(([n]) => n === name);
  return index < 0 ? undefined : EMOJI_PAGES.find((p) => index >= p.from && index < p.to)?.id;
}
