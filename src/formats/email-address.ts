import { domainToASCII } from 'node:url';
import { type UnseenKind, unseenCharacter } from './unseen-characters.js';

/**
 * Email addresses as Lanyard accepts and keys them (docs/security.md → Text people type). One function for
 * every place that accepts one: the developer area's sign-up, invitations and teams (pages and API), the
 * command line; the stores key developer accounts by normaliseEmail.
 */

export const EMAIL_MAX_LENGTH = 254; // RFC 5321 §4.5.3.1.3 (a path is at most 256 octets, with its brackets)

/** Whitespace around an address (a paste's spaces and line ends); never U+FEFF, which is refused, not trimmed. */
const AROUND = /^[\t\n\v\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+|[\t\n\v\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$/gu;

const EMAIL = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/u;

/**
 * An address as accounts are keyed by it: trimmed, NFC, lower-cased, its domain in its ASCII form (an IDN
 * domain as punycode, UTS #46), so `Ada@Bücher.Example ` and `ada@xn--bcher-kva.example` are one account.
 * A domain holding a character emailProblem refuses is left as it is (UTS #46 would drop some silently).
 */
export function normaliseEmail(email: string): string {
  const lower = email.replace(AROUND, '').normalize('NFC').toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0 || unseenCharacter(lower)) return lower;
  const domain = domainToASCII(lower.slice(at + 1));
  return domain ? `${lower.slice(0, at + 1)}${domain}` : lower;
}

const UNSEEN_TEXT: Record<UnseenKind, string> = {
  invisible: 'an invisible character',
  direction: 'a character that changes the direction of text',
  control: 'a control character',
};

/** The refusal of an address (as typed) that holds a character no one would see as typed; undefined when none. */
export function unseenInEmail(email: string): string | undefined {
  const unseen = unseenCharacter(email.replace(AROUND, ''));
  return unseen && `The email address contains ${UNSEEN_TEXT[unseen.kind]} (${unseen.codePoint}): type the address again without it.`;
}

/** Why `email` (as typed) is not an address Lanyard accepts, in words for the person who typed it; undefined when it is one. */
export function emailProblem(email: string): string | undefined {
  const trimmed = email.replace(AROUND, '');
  if (!trimmed) return 'Enter your email address.';
  const unseen = unseenInEmail(trimmed);
  if (unseen) return unseen;
  const normalised = normaliseEmail(trimmed);
  const domain = normalised.slice(normalised.lastIndexOf('@') + 1);
  if (normalised.length > EMAIL_MAX_LENGTH || !EMAIL.test(normalised) || /[^\x21-\x7e]/u.test(domain)) {
    return 'Enter an email address like name@example.org.';
  }
  return undefined;
}
