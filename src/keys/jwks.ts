import { TypedHeaderSigningKey } from './signing-key.js';
import { certificateThumbprint } from './certificate.js';
import type { ActiveKey } from './key-manager.js';

/**
 * The public key set (SPEC: Resources → Key set). Served by Lanyard because oidc-provider's own
 * key set has no x5t / x5t#S256 (docs/architecture.md → Keys).
 */
export function jwksDocument(keys: ActiveKey[]) {
  return {
    keys: keys.map((k) => ({
      kid: k.kid,
      kty: 'RSA',
      use: 'sig',
      alg: 'RS256',
      x5c: [k.certificate],
      n: k.publicJwk.n,
      e: k.publicJwk.e,
      x5t: certificateThumbprint(k.certificate, 'sha1'),
      'x5t#S256': certificateThumbprint(k.certificate, 'sha256'),
    })),
  };
}

/**
 * The keys oidc-provider signs with, the signing key first (it takes the first key of the alg): each signs
 * an ID token once, with the header SPEC.md requires (src/keys/signing-key.ts).
 */
export const providerSigningKeys = (keys: ActiveKey[]) => keys.map((k) => new TypedHeaderSigningKey(k));
