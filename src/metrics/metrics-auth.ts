import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * LANYARD_METRICS_TOKEN: a scrape presents `Authorization: Bearer <token>` (RFC 6750 §2.1). Both sides are
 * hashed before comparing, so the comparison takes the same time whatever the length or content of what was
 * sent: nothing about the token can be learnt by timing refusals.
 */

const digest = (value: string) => createHash('sha256').update(value).digest();
const BEARER = /^Bearer +(\S+) *$/i;

export type Refusal = 'missing' | 'invalid';

/** A check of Authorization headers against `token`: undefined when allowed, or why not. */
export function bearerCheck(token: string): (authorization: string | undefined) => Refusal | undefined {
  const expected = digest(token);
  return (authorization) => {
    const given = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    if (given === undefined) return 'missing';
    return timingSafeEqual(digest(given), expected) ? undefined : 'invalid';
  };
}

/** RFC 6750 §3: the challenge of a 401, with `error="invalid_token"` when a token was sent and is wrong. */
export const challenge = (refusal: Refusal): string =>
  refusal === 'missing' ? 'Bearer realm="metrics"' : 'Bearer realm="metrics", error="invalid_token"';
