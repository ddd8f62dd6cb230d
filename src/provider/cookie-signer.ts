import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type Keygrip from 'keygrip';
import { matchingKeyIndex } from '../http/signed-value.js';

/**
 * Signs and checks oidc-provider's cookie signatures (the `.sig` cookies) exactly as keygrip does, which the
 * `cookies` library would otherwise use: HMAC-SHA1 in base64url without padding, the first key signs and any
 * key verifies (`index` says which, so that a cookie signed with an older key is signed again with the new
 * one). Cookies set before stay valid either way.
 *
 * What it does differently is only the cost. keygrip makes an HMAC from the raw key at every call and
 * compares through tsscmp, which HMACs both sides again under a fresh random Buffer key; on Node 24 an
 * HMAC from a Buffer key costs about 8 µs, because node:crypto builds and catches a TypeError to find out
 * that the key is not a KeyObject, so one cookie check cost about 25 µs (and twice that for a cookie signed
 * with the second key). Here each key becomes a KeyObject once and the digests are compared as Lanyard's own
 * signed values are (matchingKeyIndex: every key, in constant time).
 */
export class CookieSigner implements Keygrip {
  readonly #keys: readonly KeyObject[];

  constructor(keys: readonly (string | Buffer)[]) {
    if (keys.length === 0) throw new TypeError('cookie signing needs at least one key');
    this.#keys = keys.map((key) => createSecretKey(typeof key === 'string' ? Buffer.from(key, 'utf8') : key));
  }

  sign(data: unknown): string {
    return digest(this.#keys[0]!, data);
  }

  verify(data: unknown, given: string): boolean {
    return this.index(data, given) > -1;
  }

  /** The index of the key that made `given` for `data`, or -1. */
  index(data: unknown, given: string): number {
    return matchingKeyIndex(this.#keys, given, (key) => digest(key, data));
  }
}

const digest = (key: KeyObject, data: unknown): string =>
  createHmac('sha1', key).update(String(data)).digest('base64url');
