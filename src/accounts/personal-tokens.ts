import { randomBytes } from 'node:crypto';
import { GENERATED_SECRET, generateClientSecret, hashClientSecret } from '../clients/client-secret.js';

/**
 * Personal API tokens, the one shape both kinds share (a developer's `lyd_…` for /developer/api, a member of
 * staff's `lys_…` for /school/api): `<prefix><id>_<secret>`, a 64-bit id in hex and a 256-bit secret, shown
 * once and kept only as a SHA-256 hash of the whole token (nothing to guess offline), with a label and an
 * expiry. A token acts as its person without a second factor, so a leaked one is limited to a quarter of a
 * year at most, a month unless chosen.
 */
export const PERSONAL_TOKEN_MAX_DAYS = 90;
export const PERSONAL_TOKEN_DEFAULT_DAYS = 30;
/** A label is a reminder for people ("CI deploys"), not a document. */
export const PERSONAL_TOKEN_LABEL_MAX = 60;
/** lastUsedAt is a reminder for people, not an audit trail: one write a minute per token is plenty. */
export const PERSONAL_TOKEN_TOUCH_INTERVAL_MS = 60_000;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** 64 random bits in hex: never contains `_`, so `<prefix><id>_<secret>` splits unambiguously. */
const ID_PATTERN = /^[0-9a-f]{16}$/;

/** A new token with the prefix (`lyd_`, `lys_`): its id, the token itself, its hash at rest and its hint (last 4). */
export function newPersonalToken(prefix: string): { id: string; token: string; hash: string; hint: string } {
  const id = randomBytes(8).toString('hex');
  const token = `${prefix}${id}_${generateClientSecret()}`;
  return { id, token, hash: hashClientSecret(token), hint: token.slice(-4) };
}

/** `<prefix><id>_<secret>` split into its id and secret; undefined for anything else. */
export function parsePersonalToken(prefix: string, token: string): { id: string; secret: string } | undefined {
  if (!token.startsWith(prefix)) return undefined;
  const rest = token.slice(prefix.length);
  const cut = rest.indexOf('_');
  if (cut < 0) return undefined;
  const id = rest.slice(0, cut);
  const secret = rest.slice(cut + 1);
  return ID_PATTERN.test(id) && GENERATED_SECRET.test(secret) ? { id, secret } : undefined;
}

/**
 * When a token stops working (epoch ms): its expiry, and never later than PERSONAL_TOKEN_MAX_DAYS from its
 * making (a token made by an earlier release could live 365 days).
 */
export const personalTokenEndsAt = (t: { createdAt: string; expiresAt: string }): number =>
  Math.min(Date.parse(t.expiresAt), Date.parse(t.createdAt) + PERSONAL_TOKEN_MAX_DAYS * DAY_MS);

/** What is wrong with a label as typed (trimmed first), or undefined: one line of at most 60 characters. */
export function personalTokenLabelProblem(label: string): 'missing' | 'too_long' | 'not_one_line' | undefined {
  if (!label) return 'missing';
  if ([...label].length > PERSONAL_TOKEN_LABEL_MAX) return 'too_long'; // characters, as JSON Schema's maxLength counts them
  // Control characters would garble lists and logs; a label is one line of text.
  if (/[\p{Cc}]/u.test(label)) return 'not_one_line';
  return undefined;
}

/** Whether `days` is a lifetime a token may be given: a whole number of days from 1 to 90. */
export const validPersonalTokenDays = (days: number): boolean => Number.isInteger(days) && days >= 1 && days <= PERSONAL_TOKEN_MAX_DAYS;
