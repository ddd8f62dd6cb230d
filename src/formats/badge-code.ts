import { createHash, randomBytes } from 'node:crypto';

/**
 * Magic-badge codes: 130 random bits written as 26 characters of Crockford's base32 (no I, L, O, U: nothing
 * a child or teacher can misread), printed in groups of four. Stored only as a SHA-256 hash, which is also
 * the lookup key: for a 128-bit secret a fast hash is enough (nothing to brute-force).
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 26;
/** What the QR code carries: a prefix, so that a stray QR code is never taken for a badge. */
const QR_PREFIX = 'LB1:';

export function generateBadgeCode(): string {
  const bytes = randomBytes(LENGTH); // one byte per character, 5 bits used: uniform over the alphabet
  return Array.from(bytes, (b) => ALPHABET[b & 31]).join('');
}

/** Canonical form of a typed or scanned code, or undefined when it cannot be a badge code. */
export function normalizeBadgeCode(input: string): string | undefined {
  const raw = input.trim().startsWith(QR_PREFIX) ? input.trim().slice(QR_PREFIX.length) : input;
  const code = raw.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : undefined;
}

/** As printed under the QR code: groups of four. */
export const formatBadgeCode = (code: string): string => code.match(/.{1,4}/g)!.join('-');

export const badgeQrPayload = (code: string): string => `${QR_PREFIX}${code}`;

export const badgeCodeHash = (code: string): string => createHash('sha256').update(code).digest('base64url');
