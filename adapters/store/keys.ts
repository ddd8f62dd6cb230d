/** Signing keys (src/keys/): one active key per month, private keys encrypted at rest. */

/** A signing key as stored: the private key is encrypted (see src/keys/key-crypto.ts). */
export interface StoredKey {
  kid: string;
  /** First instant the key may sign (ISO 8601). */
  notBefore: string;
  /** Certificate expiry (ISO 8601). */
  notAfter: string;
  /** The month this key signs for, `YYYY-MM`; unique. */
  month: string;
  certificate: string;
  encryptedPrivateKey: string;
  createdAt: string;
  /** Set when the key was replaced before its time (`lanyard keys rotate --now`): never published again. */
  revokedAt?: string;
}

export interface KeyRecords {
  /** Every stored key, ordered by month, then creation. */
  listKeys(): Promise<StoredKey[]>;
  /**
   * Atomic create-if-absent: stores `key` unless its month already has an active (unrevoked) key, and
   * returns the month's active key — the given one or the one that was there first.
   */
  insertKeyIfAbsent(key: StoredKey): Promise<StoredKey>;
  /** Atomically revokes the month's active key `kid` and stores `replacement` as the month's active key. */
  replaceKey(kid: string, replacement: StoredKey, revokedAt: string): Promise<void>;
  deleteKey(kid: string): Promise<void>;
}
