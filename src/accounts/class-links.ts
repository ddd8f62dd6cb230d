import { createHmac, randomBytes, randomInt } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClassLink, ClassLinks } from '../../adapters/store.js';
import { derivedKey } from '../keys/derived-key.js';
import type { Clock } from '../clock.js';
import { secureCookieFor, setCookie } from '../http/cookie-header.js';
import { readCookie, signValue, verifySignedValue } from '../http/signed-value.js';

/**
 * Class links (docs/childrens-sign-in.md → Class sign-in): a teacher shows or prints a code, link and QR code
 * that opens their class's name tiles on any device for a limited time (the lesson; at most a day) until it
 * expires or is revoked. The code is 10 characters of Crockford base32 (50 bits, shown `ABCDE-FGHJK`): typed
 * on a device without a camera, never guessed (the entry route is rate limited too). The store keeps only
 * an HMAC of it, under a key derived from the key-encryption key. A browser that opened a link holds a signed
 * cookie naming the link; every sign-in screen checks the link is still live in the store, so revoking
 * takes effect at once on every instance.
 */
export const CLASS_LINK_MAX_HOURS = 24;
export const CLASS_LINK_MAX_MINUTES = CLASS_LINK_MAX_HOURS * 60;
export const CLASS_CODE_LENGTH = 10;
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A code as typed or scanned (spaces, dashes, lower case, and Crockford's I/L → 1, O → 0), or undefined. */
export function normaliseClassCode(typed: unknown): string | undefined {
  if (typeof typed !== 'string' || typed.length > 40) return undefined;
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  return code.length === CLASS_CODE_LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : undefined;
}

/** A code shown to people: `ABCDE-FGHJK`. */
export const spacedClassCode = (code: string): string => `${code.slice(0, 5)}-${code.slice(5)}`;

export interface ClassLinkServiceDeps {
  store: ClassLinks;
  clock: Clock;
  /** The key-encryption key (shared by every instance, kept outside the store): the HMAC key is derived from it. */
  keyEncryptionKey: Buffer;
}

export class ClassLinkService {
  readonly #key: Buffer;

  constructor(private readonly deps: ClassLinkServiceDeps) {
    this.#key = derivedKey(deps.keyEncryptionKey, 'class link hmac v1');
  }

  #hash(code: string): string {
    return createHmac('sha256', this.#key).update(code).digest('hex');
  }

  /**
   * A new link for the class, live until `until` (capped at 24 hours from now; it must be in the future).
   * The code is returned to be shown (and printed) while the link lives; only its HMAC is kept.
   */
  async create(organisationId: string, classId: string, createdBy: ClassLink['createdBy'], until: Date): Promise<{ link: ClassLink; code: string }> {
    const now = this.deps.clock.now();
    const latest = now.getTime() + CLASS_LINK_MAX_HOURS * 3_600_000;
    if (!(until.getTime() > now.getTime())) throw new RangeError('a class link must end in the future');
    const code = Array.from({ length: CLASS_CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    const link: ClassLink = {
      id: randomBytes(12).toString('hex'),
      organisationId,
      classId,
      codeHash: this.#hash(code),
      createdAt: now.toISOString(),
      expiresAt: new Date(Math.min(until.getTime(), latest)).toISOString(),
      createdBy,
    };
    await this.deps.store.putClassLink(link);
    return { link, code };
  }

  /** The live link a code opens, or undefined (a mistyped, expired or revoked code). */
  open(typed: unknown): Promise<ClassLink | undefined> {
    const code = normaliseClassCode(typed);
    const now = this.deps.clock.now().toISOString();
    // An unknown code costs the same store round trip as a known one.
    return this.deps.store.findLiveClassLink(code ? this.#hash(code) : '', now);
  }

  /** The link by id when it is live now (not expired, not revoked). */
  async live(organisationId: string, id: string): Promise<ClassLink | undefined> {
    const link = await this.deps.store.findClassLink(organisationId, id);
    const now = this.deps.clock.now().toISOString();
    return link && !link.revokedAt && link.expiresAt > now ? link : undefined;
  }

  list(organisationId: string, classId: string): Promise<ClassLink[]> {
    return this.deps.store.listClassLinks(organisationId, classId, this.deps.clock.now().toISOString());
  }

  revoke(organisationId: string, id: string): Promise<boolean> {
    return this.deps.store.revokeClassLink(organisationId, id, this.deps.clock.now().toISOString());
  }
}

/** The browser's class link (a signed `organisationId~linkId`), for the browser session and at most the link's life. */
export const CLASS_LINK_COOKIE = 'lanyard_class';

export function setClassLinkCookie(cookieKeys: readonly string[], req: FastifyRequest, reply: FastifyReply, link: ClassLink, now: Date): void {
  const maxAge = Math.max(0, Math.floor((Date.parse(link.expiresAt) - now.getTime()) / 1000));
  setCookie(reply, {
    name: CLASS_LINK_COOKIE, value: signValue(cookieKeys, 'class-link', `${link.organisationId}~${link.id}`), path: '/', maxAge, secure: secureCookieFor(req),
  });
}

export function clearClassLinkCookie(req: FastifyRequest, reply: FastifyReply): void {
  if (readCookie(req.headers.cookie, CLASS_LINK_COOKIE) === undefined) return;
  setCookie(reply, { name: CLASS_LINK_COOKIE, value: '', path: '/', maxAge: 0, secure: secureCookieFor(req) });
}

/** What the browser's class-link cookie claims, when its signature holds; whether the link is live is ClassLinkService.live's to say. */
export function classLinkCookie(cookieKeys: readonly string[], req: FastifyRequest): { organisationId: string; id: string } | undefined {
  const value = readCookie(req.headers.cookie, CLASS_LINK_COOKIE);
  const [organisationId, id] = (value && verifySignedValue(cookieKeys, 'class-link', value))?.split('~') ?? [];
  return organisationId && id ? { organisationId, id } : undefined;
}
