import { EMOJI_PASSWORD_LENGTH, emojiGlyph, parseEmojiPassword } from '../src/formats/emoji-bank.js';

export interface EmojiBody { emoji?: string; add?: string; del?: string; go?: string; username?: string }

/**
 * The keyboard's state after one post: without JavaScript every tap posts the form, so `add` and `del`
 * change the sequence and re-render; anything else is a sign-in attempt.
 */
export function readEmojiInput(body: EmojiBody): { chosen: string[]; action: 'add' | 'del' | 'go' } {
  const chosen = parseEmojiPassword(typeof body.emoji === 'string' ? body.emoji : '')
    .filter((n) => emojiGlyph(n) !== undefined)
    .slice(0, EMOJI_PASSWORD_LENGTH);
  if (typeof body.add === 'string') {
    if (emojiGlyph(body.add) && chosen.length < EMOJI_PASSWORD_LENGTH) chosen.push(body.add);
    return { chosen, action: 'add' };
  }
  if (body.del !== undefined) {
    chosen.pop();
    return { chosen, action: 'del' };
  }
  return { chosen, action: 'go' };
}

export const TAP_ALL = `Tap all ${EMOJI_PASSWORD_LENGTH} of your pictures, then Sign in.`;
