import { createHash, createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { Store, StoredKey } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { LanyardError } from '../errors.js';
import { certificatePublicJwk, selfSignedCertificate } from './certificate.js';
import { generateRsa4096, type KeyPairPem } from './rsa-key-pair.js';
import { decryptPrivateKey, encryptPrivateKey } from './key-crypto.js';
import {
  addMonths, certificateWindow, keyStatus, type KeyStatus, type Month, selectPublished, shouldPrepareNext, signingMonth,
} from './policy.js';

export interface ActiveKey {
  kid: string;
  month: Month;
  notBefore: Date;
  notAfter: Date;
  /** base64 DER, the `x5c[0]` of the key set. */
  certificate: string;
  publicJwk: JsonWebKey;
  /**
   * Read from the stored PKCS#8, never through a JWK: Node's JWK export leaves out a third and fourth
   * prime (`oth`, src/keys/rsa-key-pair.ts), and OpenSSL then signs without the primes, through its
   * fallback: measured 91 instead of 1,110 signatures a second on one core.
   */
  privateKey: KeyObject;
}

export interface KeySet {
  signing: ActiveKey;
  /** Current month's key first, then the previous month's when it exists (SPEC: at most two). */
  published: ActiveKey[];
}

export interface KeyDescription {
  kid: string;
  month: Month;
  notBefore: string;
  notAfter: string;
  status: KeyStatus;
  createdAt: string;
  revokedAt?: string | undefined;
}

export interface KeyManagerDeps {
  store: Store;
  clock: Clock;
  keyEncryptionKey: Buffer;
  issuer: string;
  /** Injected so tests can reuse real RSA-4096 pairs instead of generating one per test. */
  generateKeyPair?: () => Promise<KeyPairPem>;
}

/** What `lanyard keys list` shows: every stored key with its status at `instant` (no decryption). */
export function describeKeys(keys: StoredKey[], instant: Date): KeyDescription[] {
  return keys.map((k) => ({
    kid: k.kid,
    month: k.month,
    notBefore: k.notBefore,
    notAfter: k.notAfter,
    status: keyStatus(k, keys, instant),
    createdAt: k.createdAt,
    ...(k.revokedAt ? { revokedAt: k.revokedAt } : {}),
  }));
}

/** RFC 7638 JWK thumbprint: the kid. */
function jwkThumbprint(jwk: JsonWebKey): string {
  return createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })).digest('base64url');
}

/**
 * Creates, stores (encrypted) and loads signing keys; which key signs and which are published is decided
 * by the pure functions of src/keys/policy.ts.
 */
export class KeyManager {
  /** Generations under way in this process, so concurrent callers share one (a key is the work of a fraction of a second, a certificate too). */
  readonly #creating = new Map<Month, Promise<StoredKey>>();
  /** Decrypted keys by kid: decrypting is cheap, but rekeying should not redo it every time. */
  readonly #opened = new Map<string, ActiveKey>();
  /** Asked before a key is minted; throws to refuse (a running instance's store identity: src/keys/identity-watch.ts). */
  #mayMint: (() => Promise<void>) | undefined;

  constructor(private readonly deps: KeyManagerDeps) {}

  /** From now on, no key is minted unless `check` resolves (docs/storage.md → The store's identity). */
  guardMinting(check: () => Promise<void>): void {
    this.#mayMint = check;
  }

  /** Makes sure `month` has an active key; exactly one per month even with several instances (atomic insert). */
  async ensureMonth(month: Month): Promise<StoredKey> {
    const existing = (await this.deps.store.listKeys()).find((k) => k.month === month && !k.revokedAt);
    if (existing) return existing;
    let creating = this.#creating.get(month);
    if (!creating) {
      creating = Promise.resolve(this.#mayMint?.()).then(() => this.#generate(month))
        .then((key) => this.deps.store.insertKeyIfAbsent(key))
        .finally(() => this.#creating.delete(month));
      this.#creating.set(month, creating);
    }
    return creating;
  }

  /** A new key for `month`; its certificate starts at `notBefore` (the month's start, or now for an emergency key). */
  async #generate(month: Month, notBefore = certificateWindow(month).notBefore): Promise<StoredKey> {
    const pair = await (this.deps.generateKeyPair ?? generateRsa4096)();
    const { notAfter } = certificateWindow(month);
    const publicJwk = createPublicKey(pair.publicKeyPem).export({ format: 'jwk' });
    const kid = jwkThumbprint(publicJwk);
    const certificate = await selfSignedCertificate(pair, new URL(this.deps.issuer).hostname, notBefore, notAfter);
    return {
      kid,
      month,
      notBefore: notBefore.toISOString(),
      notAfter: notAfter.toISOString(),
      certificate,
      encryptedPrivateKey: encryptPrivateKey(this.deps.keyEncryptionKey, kid, pair.privateKeyPem),
      createdAt: this.deps.clock.now().toISOString(),
    };
  }

  /** The kids that should be published at `instant`, signing key first, from what is stored (no decryption). */
  async publishedKids(instant = this.deps.clock.now()): Promise<string[]> {
    return selectPublished(await this.deps.store.listKeys(), instant).map((k) => k.kid);
  }

  /**
   * The key set in force at `instant`, or undefined while the month's key does not exist yet.
   * Throws key_unreadable when a published key cannot be decrypted (wrong KEK or tampered record).
   */
  async keySetAt(instant: Date): Promise<KeySet | undefined> {
    const published = selectPublished(await this.deps.store.listKeys(), instant);
    if (published[0]?.month !== signingMonth(instant)) return undefined;
    const opened = published.map((k) => this.#open(k));
    return { signing: opened[0]!, published: opened };
  }

  /** The keys in force now; creates the current month's key when missing (cold start, before ready). */
  async current(): Promise<KeySet> {
    const now = this.deps.clock.now();
    await this.ensureMonth(signingMonth(now));
    return (await this.keySetAt(now))!;
  }

  /** In the last days of a month: makes sure next month's key exists (stored, not published until its month). */
  async prepareNext(instant = this.deps.clock.now()): Promise<StoredKey | undefined> {
    if (!shouldPrepareNext(instant)) return undefined;
    const next = await this.ensureMonth(addMonths(signingMonth(instant), 1));
    this.#open(next); // an unreadable record fails now, days before the switch, not at midnight on the 1st
    return next;
  }

  /**
   * Emergency rotation (`lanyard keys rotate --now`): a fresh key for this month, valid from now, replaces
   * the month's key, which is revoked and so leaves the key set at once. Still at most two published.
   */
  async rotateNow(): Promise<StoredKey> {
    const now = this.deps.clock.now();
    const month = signingMonth(now);
    const replaced = await this.ensureMonth(month);
    await this.#mayMint?.();
    const fresh = await this.#generate(month, new Date(Math.floor(now.getTime() / 1000) * 1000));
    await this.deps.store.replaceKey(replaced.kid, fresh, now.toISOString());
    return fresh;
  }

  /** Deletes keys whose certificate has expired: they are long out of the key set. */
  async purgeExpired(instant = this.deps.clock.now()): Promise<string[]> {
    const expired = (await this.deps.store.listKeys()).filter((k) => new Date(k.notAfter) < instant);
    for (const k of expired) {
      await this.deps.store.deleteKey(k.kid);
      this.#opened.delete(k.kid);
    }
    return expired.map((k) => k.kid);
  }


  #open(k: StoredKey): ActiveKey {
    const cached = this.#opened.get(k.kid);
    if (cached && cached.certificate === k.certificate) return cached;
    const pem = decryptPrivateKey(this.deps.keyEncryptionKey, k.kid, k.encryptedPrivateKey);
    const privateKey = createPrivateKey(pem);
    const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
    if (jwkThumbprint(publicJwk) !== k.kid) {
      throw new LanyardError('key_unreadable', `signing key ${k.kid}: private key does not match its kid`);
    }
    // The certificate is stored in the clear: a substituted one would publish someone else's key under this kid.
    const certified = certificatePublicJwk(k.certificate);
    if (!certified || jwkThumbprint(certified) !== k.kid) {
      throw new LanyardError('key_unreadable', `signing key ${k.kid}: the stored certificate does not carry this key (tampered record?)`);
    }
    const opened: ActiveKey = {
      kid: k.kid,
      month: k.month,
      notBefore: new Date(k.notBefore),
      notAfter: new Date(k.notAfter),
      certificate: k.certificate,
      publicJwk,
      privateKey,
    };
    this.#opened.set(k.kid, opened);
    return opened;
  }
}
