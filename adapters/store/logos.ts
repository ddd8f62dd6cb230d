/**
 * Apps' logos as Lanyard fetched them (docs/security.md → App logos): the image's bytes, kept by client and by
 * the SHA-256 of the bytes, and served from Lanyard's own origin, so that no page makes a browser fetch an
 * image from an app's host. A client's `logoHash` names the one its pages show; a logo is stored before the
 * client names it, and the others are pruned after, so a failure in between leaves nothing shown half-changed.
 */

export interface StoredLogo {
  clientId: string;
  /** SHA-256 of `bytes`, lower-case hex. */
  hash: string;
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`: what the bytes are (their magic bytes said so). */
  contentType: string;
  bytes: Buffer;
  /** Where it was fetched from, and when (ISO 8601). */
  sourceUrl: string;
  fetchedAt: string;
}

export interface ClientLogos {
  /** Stores (or replaces, by client and hash) a logo; the client must exist (`not_found` otherwise). */
  putClientLogo(logo: StoredLogo): Promise<void>;
  /** The client's logo with this hash, if it is stored. */
  findClientLogo(clientId: string, hash: string): Promise<StoredLogo | undefined>;
  /** Removes the client's logos other than `keepHash` (all of them without it); returns how many. */
  pruneClientLogos(clientId: string, keepHash?: string): Promise<number>;
}
