/**
 * Characters that change what text looks like without being seen (docs/security.md → Text people type):
 * invisible ones (zero-width spaces and joiners, the word joiner, the byte-order mark, the soft hyphen),
 * Unicode's direction controls (the bidirectional embeddings, overrides and isolates, and the marks: text
 * shown after one is displayed reordered or reversed, so "Maths \u202Eemoh ruoy ot kcab og" reads "go back to
 * your home"), and control characters (C0, DEL, C1). One list, so every field that refuses them refuses the
 * same: names refuse the direction and control characters, email addresses all three.
 */
export type UnseenKind = 'invisible' | 'direction' | 'control';

const CLASSES: Record<UnseenKind, RegExp> = {
  invisible: /[\u00AD\u180E\u200B-\u200D\u2060-\u2064\uFEFF]/u,
  direction: /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u,
  // eslint-disable-next-line no-control-regex
  control: /[\u0000-\u001F\u007F-\u009F]/u,
};
const ANY = new RegExp(`[${Object.values(CLASSES).map((c) => c.source.slice(1, -1)).join('')}]`, 'gu');

/** The first such character in `text`: its kind and its code point as Unicode writes it (`U+200B`). */
export interface UnseenCharacter { kind: UnseenKind; codePoint: string }

export const codePointOf = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

export function unseenCharacter(text: string, kinds: readonly UnseenKind[] = ['invisible', 'direction', 'control']): UnseenCharacter | undefined {
  for (const c of text) {
    const kind = kinds.find((k) => CLASSES[k].test(c));
    if (kind) return { kind, codePoint: codePointOf(c) };
  }
  return undefined;
}

/** Whether `text` holds a direction control (a name that would read otherwise than it is stored). */
export const reordersText = (text: string): boolean => CLASSES.direction.test(text);

/** Whether `text` holds a control character (C0, DEL or C1). */
export const hasControlCharacter = (text: string): boolean => CLASSES.control.test(text);

/**
 * Text to show: each such character written out as its code point in brackets (`[U+202E]`), so an address
 * stored before they were refused reads as what it is, neither hidden nor reordered.
 */
export const showUnseen = (text: string): string => text.replace(ANY, (c) => `[${codePointOf(c)}]`);
