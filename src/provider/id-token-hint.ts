import { createPublicKey } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, errors, type ProtectedHeaderParameters } from 'jose';
import type { ActiveKey } from '../keys/key-manager.js';
import { PARAM_MAX_LENGTH } from './authorization-params.js';

/** The longest id_token_hint read: an ID token Lanyard signed is about 1.3 KB (authorization-params.ts). */
export const ID_TOKEN_HINT_MAX_LENGTH = PARAM_MAX_LENGTH.id_token_hint;

export type IdTokenHint =
  | { ok: true; clientId: string }
  | { ok: false; problem: string };

const refused = (problem: string): IdTokenHint => ({ ok: false, problem });
const MALFORMED = refused('The id_token_hint is not an ID token (it cannot be read).');

/**
 * OpenID Connect RP-Initiated Logout 1.0 §2: `id_token_hint` is "an ID Token previously issued by the OP";
 * "the OP MUST validate that it was the issuer of the ID Token", and it "SHOULD accept ID Tokens ... even
 * when the exp time has passed". So: the RS256 signature of a key Lanyard publishes now (SPEC: Key set —
 * the current and the previous month's; a key revoked by `keys rotate --now` no longer counts) and `iss`
 * equal to the issuer, and nothing about time. Answers which app the token was issued to, never its claims.
 */
export async function verifyIdTokenHint(token: string, issuer: string, published: readonly ActiveKey[]): Promise<IdTokenHint> {
  if (token.length > ID_TOKEN_HINT_MAX_LENGTH) {
    return refused(`The id_token_hint is too long to be an ID token Lanyard issued (at most ${ID_TOKEN_HINT_MAX_LENGTH} characters).`);
  }
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return MALFORMED;
  }
  // SPEC: ID token header — alg is always RS256, typ is JWT.
  if (header.alg !== 'RS256') return refused('The id_token_hint is not signed with RS256, as Lanyard’s ID tokens are.');
  if (header.typ !== undefined && header.typ !== 'JWT') return refused('The id_token_hint is not an ID token (typ is not JWT).');
  // SPEC: Signing-key policy 5 — the key is chosen by the kid in the token header.
  const key = published.find((k) => k.kid === header.kid);
  if (!key) {
    return refused('The id_token_hint was not signed by a key Lanyard publishes (unknown kid): Lanyard did not issue it, '
      + 'or its key was withdrawn.');
  }

  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(token, createPublicKey({ key: key.publicJwk, format: 'jwk' }), { algorithms: ['RS256'] }));
  } catch (err) {
    return err instanceof errors.JWSSignatureVerificationFailed
      ? refused('The id_token_hint’s signature is not valid: Lanyard did not issue this token.')
      : MALFORMED;
  }
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    return MALFORMED;
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return MALFORMED;
  const { iss, aud, azp } = claims as Record<string, unknown>;
  // SPEC: ID token iss "exactly equals the discovery issuer".
  if (iss !== issuer) return refused('The id_token_hint was issued by another server (its iss is not Lanyard’s issuer).');
  const clientId = audience(aud, azp);
  return clientId ? { ok: true, clientId } : refused('The id_token_hint does not name one app as its audience (aud).');
}

/**
 * The app an ID token was issued to. SPEC: aud is the client's client_id. OpenID Connect Core 1.0 §2:
 * with several audiences, azp names the party the token was issued to (and must be one of them).
 */
function audience(aud: unknown, azp: unknown): string | undefined {
  const list = typeof aud === 'string' ? [aud] : Array.isArray(aud) && aud.every((a) => typeof a === 'string') ? aud as string[] : [];
  if (azp !== undefined) return typeof azp === 'string' && list.includes(azp) ? azp : undefined;
  return list.length === 1 && list[0] ? list[0] : undefined;
}
