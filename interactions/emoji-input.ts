import { EMOJI_PASSWORD_LENGTH, emojiGlyph, parseEmojiPassword } from '../src/formats/emoji-bank.js';
import type { Translator } from '../src/web/i18n/translator.js';
import { type EmojiPageId, FIRST_PAGE, isEmojiPage, pageOf } from './emoji-pages.js';

/**
 * The keyboard's form: `emoji` the names chosen so far; one of `add` (a picture), `del` (undo), `page` (a tab)
 * or `go` (Sign in); `at` the page shown when it was posted.
 */
export interface EmojiBody { emoji?: string; add?: string; del?: string; go?: string; page?: string; at?: string; username?: string }

export interface EmojiInput {
  chosen: string[];
  action: 'add' | 'del' | 'page' | 'go';
  /** The page to show next: the tab asked for, the page of the picture just added, or the page it was on. */
  page: EmojiPageId;
}

/**
 * The keyboard's state after one post: without JavaScript every tap posts the form, so `add`, `del` and `page`
 * change the sequence or the page shown and re-render; anything else is a sign-in attempt.
 */
export function readEmojiInput(body: EmojiBody): EmojiInput {
  const chosen = parseEmojiPassword(typeof body.emoji === 'string' ? body.emoji : '')
    .filter((n) => emojiGlyph(n) !== undefined)
    .slice(0, EMOJI_PASSWORD_LENGTH);
  const at = isEmojiPage(body.at) ? body.at : FIRST_PAGE;
  if (typeof body.add === 'string') {
    if (emojiGlyph(body.add) && chosen.length < EMOJI_PASSWORD_LENGTH) chosen.push(body.add);
    return { chosen, action: 'add', page: pageOf(body.add) ?? at };
  }
  if (body.del !== undefined) {
    chosen.pop();
    return { chosen, action: 'del', page: at };
  }
  if (typeof body.page === 'string') return { chosen, action: 'page', page: isEmojiPage(body.page) ? body.page : at };
  return { chosen, action: 'go', page: at };
}

/** Said when Sign in is tapped before all six pictures. */
export const tapAll = (t: Translator) => t.t('emoji.tapAll', { count: EMOJI_PASSWORD_LENGTH });
