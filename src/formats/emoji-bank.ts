import { randomInt } from 'node:crypto';

/**
 * The fixed bank of emoji-password symbols: 84 distinct, child-friendly pictures, each with the name a
 * screen reader says. Never reorder or rename: stored hashes are of the names.
 */
export const EMOJI_BANK = [
  ['dog', '🐶'], ['cat', '🐱'], ['mouse', '🐭'], ['rabbit', '🐰'], ['fox', '🦊'], ['bear', '🐻'],
  ['panda', '🐼'], ['koala', '🐨'], ['tiger', '🐯'], ['lion', '🦁'], ['cow', '🐮'], ['pig', '🐷'],
  ['frog', '🐸'], ['monkey', '🐵'], ['chicken', '🐔'], ['penguin', '🐧'], ['owl', '🦉'], ['horse', '🐴'],
  ['unicorn', '🦄'], ['bee', '🐝'], ['butterfly', '🦋'], ['snail', '🐌'], ['turtle', '🐢'], ['octopus', '🐙'],
  ['fish', '🐟'], ['whale', '🐳'], ['dolphin', '🐬'], ['crab', '🦀'],
  ['apple', '🍎'], ['banana', '🍌'], ['grapes', '🍇'], ['strawberry', '🍓'], ['watermelon', '🍉'], ['cherries', '🍒'],
  ['pineapple', '🍍'], ['lemon', '🍋'], ['carrot', '🥕'], ['corn', '🌽'], ['broccoli', '🥦'], ['mushroom', '🍄'],
  ['pizza', '🍕'], ['cake', '🎂'], ['cookie', '🍪'], ['ice cream', '🍦'], ['doughnut', '🍩'], ['cheese', '🧀'],
  ['bread', '🍞'], ['egg', '🥚'],
  ['sun', '🌞'], ['moon', '🌙'], ['star', '⭐'], ['rainbow', '🌈'], ['cloud', '🌥️'], ['snowflake', '❄️'],
  ['fire', '🔥'], ['tree', '🌳'], ['flower', '🌸'], ['sunflower', '🌻'], ['cactus', '🌵'], ['leaf', '🍁'],
  ['car', '🚗'], ['bus', '🚌'], ['train', '🚂'], ['rocket', '🚀'], ['airplane', '✈️'], ['sailboat', '⛵'],
  ['bicycle', '🚲'], ['football', '⚽'], ['basketball', '🏀'], ['balloon', '🎈'], ['present', '🎁'], ['bell', '🔔'],
  ['book', '📘'], ['pencil', '✏️'], ['scissors', '✂️'], ['key', '🔑'], ['umbrella', '☂️'], ['guitar', '🎸'],
  ['drum', '🥁'], ['crown', '👑'], ['glasses', '👓'], ['top hat', '🎩'], ['house', '🏠'], ['teddy bear', '🧸'],
] as const satisfies readonly (readonly [string, string])[];

export type EmojiName = (typeof EMOJI_BANK)[number][0];

/** SPEC-adjacent policy (issue: emoji passwords): 6 symbols, drawn uniformly, repeats allowed: 84^6 ≈ 2^38.4. */
export const EMOJI_PASSWORD_LENGTH = 6;

const NAMES = new Map<string, string>(EMOJI_BANK.map(([name, glyph]) => [name, glyph]));

export const emojiGlyph = (name: string): string | undefined => NAMES.get(name);

/** A new emoji password: each position drawn uniformly from the bank (crypto RNG); repeats are allowed. */
export function generateEmojiPassword(): EmojiName[] {
  return Array.from({ length: EMOJI_PASSWORD_LENGTH }, () => EMOJI_BANK[randomInt(EMOJI_BANK.length)]![0]);
}

/**
 * The canonical form that is hashed: the names joined by commas. Returns undefined unless the input is
 * exactly EMOJI_PASSWORD_LENGTH names from the bank.
 */
export function canonicalEmojiPassword(names: readonly string[]): string | undefined {
  if (names.length !== EMOJI_PASSWORD_LENGTH || !names.every((n) => NAMES.has(n))) return undefined;
  return names.join(',');
}

/** Parses the form/config representation: names separated by commas. */
export const parseEmojiPassword = (value: string): string[] =>
  value.split(',').map((n) => n.trim()).filter(Boolean);

export const describeEmojiPassword = (names: readonly string[]): string =>
  names.map((n) => `${NAMES.get(n) ?? '?'} ${n}`).join('  ');
