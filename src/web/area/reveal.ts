import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../../adapters/store.js';
import type { Clock } from '../../clock.js';
import { type AreaCookies, cookieOf } from './area-cookies.js';
import { derivedKey } from '../../keys/derived-key.js';

const REVEAL_SECONDS = 300;

/**
 * Values shown exactly once on the page after a 303 (a new client secret, API token or recovery codes). The
 * value travels in an encrypted (AES-256-GCM), HttpOnly, short-lived cookie (`lanyard_<area>_reveal`), never
 * in the store or a URL, under a key derived (HKDF-SHA-256) from the key-encryption key, with the session's
 * key as associated data: it opens only for the session that made it, and only for 5 minutes. It also names
 * a single-use record in the store (model `<Area>Reveal`), consumed when the value is shown: the same cookie
 * sent again (a stolen session's copy, a replayed request) shows nothing.
 */
export class Reveals {
  readonly #cookie: string;
  readonly #model: string;
  readonly #aad: string;
  readonly #key: Buffer;

  constructor(
    private readonly deps: { cookies: AreaCookies; store: Pick<Store, 'oidc'>; clock: Clock; keyEncryptionKey: Buffer },
    area: string,
  ) {
    this.#cookie = `lanyard_${area}_reveal`;
    this.#model = `${area[0]!.toUpperCase()}${area.slice(1)}Reveal`;
    this.#aad = `${area}-reveal:`;
    this.#key = derivedKey(deps.keyEncryptionKey, `${area}-area reveal cookie v1`);
  }

  /** Sets the value for `name` (which value it is: `secret:<client_id>`, …) for the session `sessionKey`. */
  async set(reply: FastifyReply, sessionKey: string, name: string, value: string): Promise<void> {
    const once = randomBytes(16).toString('base64url');
    await this.deps.store.oidc.upsert(this.#model, once, {}, REVEAL_SECONDS);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(`${this.#aad}${sessionKey}`));
    const exp = this.deps.clock.now().getTime() + REVEAL_SECONDS * 1000;
    const body = Buffer.concat([cipher.update(JSON.stringify({ n: name, v: value, exp, once }), 'utf8'), cipher.final()]);
    this.deps.cookies.set(reply, this.#cookie, Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url'), REVEAL_SECONDS);
  }

  /** The value set for `name`, once (then cleared and used up); undefined when none, shown already or for another session. */
  async take(req: FastifyRequest, reply: FastifyReply, sessionKey: string, name: string): Promise<string | undefined> {
    const sealed = cookieOf(req, this.#cookie);
    if (!sealed) return undefined;
    const opened = this.#open(sealed, sessionKey);
    if (opened && opened.n !== name) return undefined; // another page's value: left for that page
    this.deps.cookies.clear(reply, this.#cookie);
    if (!opened || opened.exp <= this.deps.clock.now().getTime()) return undefined;
    return await this.deps.store.oidc.consume(this.#model, opened.once) ? opened.v : undefined;
  }

  #open(sealed: string, sessionKey: string): { n: string; v: string; exp: number; once: string } | undefined {
    try {
      const raw = Buffer.from(sealed, 'base64url');
      if (raw.length < 29) return undefined;
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12), { authTagLength: 16 });
      decipher.setAAD(Buffer.from(`${this.#aad}${sessionKey}`));
      decipher.setAuthTag(raw.subarray(12, 28));
      const p = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as {
        n?: unknown; v?: unknown; exp?: unknown; once?: unknown;
      };
      return typeof p.n === 'string' && typeof p.v === 'string' && typeof p.exp === 'number' && typeof p.once === 'string'
        ? { n: p.n, v: p.v, exp: p.exp, once: p.once } : undefined;
    } catch {
      return undefined;
    }
  }
}
