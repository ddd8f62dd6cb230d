import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Client secrets are machine-generated, 256-bit random values, so a SHA-256 hash protects them at rest as
 * well as a slow hash would (there is nothing to guess), and checking one costs microseconds: the token
 * endpoint gives nobody a way to make Lanyard burn CPU. Format: `sha256:<base64url>`.
 */
export const CLIENT_SECRET_MIN_LENGTH = 32;

export const generateClientSecret = (): string => randomBytes(32).toString('base64url');

/**
 * The shape of generateClientSecret's values: 43 base64url characters. The developer area's other random
 * credentials (session cookies, invitation links, API token secrets) are made the same way.
 */
export const GENERATED_SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The SHA-256 of a generated secret, base64url: how one is found again without being stored (a record's key). */
export const secretKey = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('base64url');

export const hashClientSecret = (secret: string): string => `sha256:${secretKey(secret)}`;

/** Constant-time comparison of a presented secret with a stored hash. */
export const clientSecretMatches = (hash: string, presented: string): boolean => sameHash(hash, hashClientSecret(presented));

/** Constant-time comparison of two hashes (a stored one and one of what was presented). */
export function sameHash(stored: string, presented: string): boolean {
  const expected = Buffer.from(stored);
  const actual = Buffer.from(presented);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
