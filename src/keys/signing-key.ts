import { createPublicKey, type KeyObject, sign } from 'node:crypto';
import { ExternalSigningKey } from 'oidc-provider';
import type { ActiveKey } from './key-manager.js';

const DOT = 0x2e;
const encode = (header: object) => Buffer.from(JSON.stringify(header)).toString('base64url');

/**
 * A signing key as oidc-provider receives it (its ExternalSigningKey, features.externalSigningSupport), so
 * that each ID token is signed once, by Lanyard, under the header SPEC.md requires: `alg` RS256, `typ`
 * JWT, `kid` (Resources → ID token). The library writes the JWS itself and has no setting for `typ`; it
 * hands this key `<its header>.<payload>` to sign. The key signs `<SPEC header>.<payload>` instead, and
 * src/provider/internals.ts puts the SPEC header into the issued token in place of the library's. A token
 * whose header already has a `typ` of its own is signed as given.
 *
 * The signature is computed on libuv's thread pool (node:crypto `sign` with a callback), off the event
 * loop, where jose's WebCrypto signing also ran.
 *
 * Library coupling: listed in src/provider/internals.ts (the header layout oidc-provider signs).
 */
export class TypedHeaderSigningKey extends ExternalSigningKey {
  /** The header oidc-provider writes for an ID token signed with this key, base64url. */
  readonly libraryHeader: string;
  /** The header SPEC.md requires, base64url. */
  readonly typedHeader: string;
  readonly #private: KeyObject;
  readonly #public: KeyObject;
  readonly #libraryPrefix: Buffer;
  readonly #typedHeaderBytes: Buffer;

  constructor(key: ActiveKey) {
    super();
    Object.assign(this, { kid: key.kid, alg: 'RS256' }); // setters the library declares read-only in its types
    this.#private = key.privateKey;
    this.#public = createPublicKey(this.#private);
    this.libraryHeader = encode({ alg: 'RS256', kid: key.kid });
    this.typedHeader = encode({ alg: 'RS256', typ: 'JWT', kid: key.kid });
    this.#libraryPrefix = Buffer.from(`${this.libraryHeader}.`);
    this.#typedHeaderBytes = Buffer.from(this.typedHeader);
  }

  override keyObject(): KeyObject {
    return this.#public;
  }

  override sign(data: Uint8Array): Promise<Uint8Array> {
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
    const input = bytes.subarray(0, this.#libraryPrefix.length).equals(this.#libraryPrefix)
      ? Buffer.concat([this.#typedHeaderBytes, bytes.subarray(bytes.indexOf(DOT))])
      : bytes;
    return new Promise((resolve, reject) => {
      sign('sha256', input, this.#private, (err, signature) => (err ? reject(err) : resolve(signature)));
    });
  }

  /** A token the library issued with this key, with the header that was signed in place of its own. */
  withTypedHeader(token: string): string {
    return token.startsWith(this.libraryHeader) && token.charCodeAt(this.libraryHeader.length) === DOT
      ? this.typedHeader + token.slice(this.libraryHeader.length)
      : token;
  }
}
