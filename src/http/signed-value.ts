import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Values Lanyard hands to browsers and must recognise later (device cookies, classroom-device credentials):
 * `<value>.<HMAC-SHA256 of purpose and value>`, signed with the first cookie key and accepted under any
 * configured one, so rotating LANYARD_COOKIE_KEYS (new key first) never disowns what browsers hold.
 */
const mac = (key: string, purpose: string, value: string) =>
  createHmac('sha256', key).update(`${purpose}:${value}`).digest('base64url');

export function signValue(keys: readonly string[], purpose: string, value: string): string {
  return `${value}.${mac(keys[0]!, purpose, value)}`;
}

/** The value, when `signed` carries a valid signature for `purpose` under one of `keys`. */
export function verifySignedValue(keys: readonly string[], purpose: string, signed: string): string | undefined {
  const dot = signed.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const value = signed.slice(0, dot);
  return matchesAnyKey(keys, signed.slice(dot + 1), (key) => mac(key, purpose, value)) ? value : undefined;
}

/**
 * The index of the first of `keys` for which `presented` equals `sign(key)`, or -1. Every key is tried, each
 * comparison constant-time, so the time taken tells nothing about which key (or how much of a token) matched.
 */
export function matchingKeyIndex<K>(keys: readonly K[], presented: unknown, sign: (key: K) => string): number {
  if (typeof presented !== 'string') return -1;
  const given = Buffer.from(presented);
  let matched = -1;
  keys.forEach((key, i) => {
    const expected = Buffer.from(sign(key));
    if (given.length === expected.length && timingSafeEqual(given, expected) && matched < 0) matched = i;
  });
  return matched;
}

/** Does `presented` equal `sign(key)` for one of `keys`? (matchingKeyIndex) */
export const matchesAnyKey = <K>(keys: readonly K[], presented: unknown, sign: (key: K) => string): boolean =>
  matchingKeyIndex(keys, presented, sign) >= 0;

/** One cookie's value from a Cookie header (the first of that name), or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
