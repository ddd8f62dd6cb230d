import { randomInt } from 'node:crypto';
import { hashClientSecret } from '../clients/client-secret.js';

/**
 * Recovery codes: ten single-use second factors for someone who has lost their authenticator (a developer, a
 * member of a school's staff). Each is 16 characters of an unambiguous 32-letter alphabet (80 bits), so a
 * SHA-256 hash protects it at rest (there is nothing to guess offline, as with client secrets); shown once,
 * grouped `XXXX-XXXX-XXXX-XXXX`.
 */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no I, O, 0, 1: nothing to misread
const LENGTH = 16;

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return chars.replace(/(.{4})(?=.)/g, '$1-');
  });
}

/** What was typed, as the code it means: case, spaces and dashes do not matter. */
export const normaliseRecoveryCode = (typed: string): string => typed.toUpperCase().replace(/[\s-]/g, '');

export const looksLikeRecoveryCode = (typed: string): boolean =>
  new RegExp(`^[${ALPHABET}]{${LENGTH}}$`).test(normaliseRecoveryCode(typed));

export const hashRecoveryCode = (code: string): string =>
  hashClientSecret(normaliseRecoveryCode(code));
