import { randomInt } from 'node:crypto';

/**
 * Identifiers are a letter followed by digits (SPEC: ID token — `sub` is "of the form letter followed by digits").
 * 15 random digits: ~50 bits, collision-free in practice for a school district; uniqueness is enforced by the store.
 */
export function newId(letter: 'u' | 'o'): string {
  let digits = String(randomInt(1, 10));
  for (let i = 0; i < 14; i += 1) digits += String(randomInt(0, 10));
  return letter + digits;
}

export const isUserId = (value: string): boolean => /^u\d{15}$/.test(value);
