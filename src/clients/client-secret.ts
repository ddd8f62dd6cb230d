import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Client secrets are machine-generated, 256-bit random values, so a SHA-256 hash protects them at rest as
 * well as a slow hash would (there is nothing to guess), and checking one costs microseconds: the token
 * endpoint gives nobody a way to make Lanyard burn CPU. Format: `sha256:<base64url>`.
 */
export const CLIENT_SECRET_MIN_LENGTH = 32;

export const generateClientSecret = (): string => randomBytes(32).toString('base64url');

export const hashClientSecret = (secret: string): string =>
  `sha256:${createHash('sha256').update(secret, 'utf8').digest('base64url')}`;

/** Constant-time comparison of a presented secret with a stored hash. */
export function clientSecretMatches(hash: string, presented: string): boolean {
  const expected = Buffer.from(hash);
  const actual = Buffer.from(hashClientSecret(presented));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
