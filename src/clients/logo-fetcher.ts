import { createHash } from 'node:crypto';
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { sniffLogoType } from './logo-image.js';
import { isPublicAddress } from './public-address.js';

/** What Lanyard fetches for a logo, at most: small enough for a tile, quick enough for a form's answer. */
export const LOGO_LIMITS = { maxBytes: 256 * 1024, timeoutMs: 5_000, maxRedirects: 3 } as const;

/** A logo as fetched: its bytes, what they are (by their magic bytes), their SHA-256 and where they came from. */
export interface FetchedLogo { bytes: Buffer; contentType: string; hash: string; url: string }

export type LogoFetchResult = { ok: true; logo: FetchedLogo } | { ok: false; message: string };

/**
 * How the fetcher reaches hosts. The default (nothing set) is production's: the system's resolver and
 * certificate authorities, and only public addresses. Tests serve logos from loopback, so they name the
 * hosts that may resolve to a non-public address, with their own resolver and certificate authority.
 */
export interface LogoFetchPolicy {
  /** Host names allowed to resolve to loopback or private addresses. Tests only: never set in production. */
  privateHosts?: readonly string[];
  /** The resolver (default: the system's, dns.lookup). */
  lookup?: typeof systemLookup;
  /** Certificate authorities to trust instead of Node's (PEM). */
  ca?: string | readonly string[];
  timeoutMs?: number;
  maxBytes?: number;
}

const MAX_KIB = (n: number) => `${Math.round(n / 1024)} KiB`;

/** A refusal whose message a developer may read next to the logo field. */
class Refused extends Error {}

const MESSAGES = {
  notHttps: 'Lanyard fetches logos over https only: the logo URL (or where it redirects) is not https.',
  privateHost: 'The logo’s host is a private or local address: Lanyard fetches logos from the public internet only.',
  unresolved: 'Lanyard could not find the logo’s host: its name does not resolve.',
  unreachable: 'Lanyard could not fetch the logo over https: the connection failed or the certificate is not valid.',
  timeout: (ms: number) => `The logo’s host took longer than ${ms / 1000} seconds to send it.`,
  status: (status: number) => `The logo URL answered with HTTP status ${status}, not an image.`,
  tooBig: (max: number) => `The logo is larger than ${MAX_KIB(max)}: use a smaller image (a 192 × 192 PNG is plenty).`,
  type: 'The logo must be a PNG, JPEG, GIF or WebP image (SVG and other types are not accepted).',
  redirects: `The logo URL redirects more than ${LOGO_LIMITS.maxRedirects} times.`,
} as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches an app's logo once, when it is set (docs/security.md → App logos): https only; every address the
 * host resolves to must be public, checked when the connection is made (the address connected to is the
 * one checked, so a name that resolves differently the second time gains nothing); redirects followed
 * only to https addresses that pass the same checks, at most three; at most 256 KiB within 5 seconds; kept
 * only when the bytes are a PNG, JPEG, GIF or WebP image.
 */
export class LogoFetcher {
  readonly #policy: LogoFetchPolicy;
  constructor(policy: LogoFetchPolicy = {}) { this.#policy = policy; }

  async fetch(url: string): Promise<LogoFetchResult> {
    const timeoutMs = this.#policy.timeoutMs ?? LOGO_LIMITS.timeoutMs;
    const deadline = Date.now() + timeoutMs;
    try {
      let target = new URL(url);
      for (let redirects = 0; ; redirects += 1) {
        const answer = await this.#get(target, deadline, timeoutMs);
        if ('bytes' in answer) {
          const type = sniffLogoType(answer.bytes);
          if (!type) throw new Refused(MESSAGES.type);
          const hash = createHash('sha256').update(answer.bytes).digest('hex');
          return { ok: true, logo: { bytes: answer.bytes, contentType: type.contentType, hash, url: target.href } };
        }
        if (redirects >= LOGO_LIMITS.maxRedirects) throw new Refused(MESSAGES.redirects);
        target = new URL(answer.location, target);
      }
    } catch (err) {
      if (err instanceof Refused) return { ok: false, message: err.message };
      if (err instanceof TypeError) return { ok: false, message: MESSAGES.notHttps }; // new URL() of something unreadable
      return { ok: false, message: MESSAGES.unreachable };
    }
  }

  /** One GET: the bytes of a 200, or where a redirect goes. */
  #get(url: URL, deadline: number, timeoutMs: number): Promise<{ bytes: Buffer } | { location: string }> {
    if (url.protocol !== 'https:' || url.username || url.password) return Promise.reject(new Refused(MESSAGES.notHttps));
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // An address written as such is never looked up, so it is checked here; a name is checked as it resolves.
    if (isIP(host) && !isPublicAddress(host)) return Promise.reject(new Refused(MESSAGES.privateHost));
    const maxBytes = this.#policy.maxBytes ?? LOGO_LIMITS.maxBytes;
    return new Promise((resolve, reject) => {
      const req = request(url, {
        method: 'GET',
        agent: false,
        lookup: this.#lookup(host),
        ...(this.#policy.ca ? { ca: this.#policy.ca as string | string[] } : {}),
        headers: { accept: 'image/png, image/jpeg, image/gif, image/webp', 'user-agent': 'Lanyard (logo fetch)' },
      });
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(err);
      };
      // The refusal first, then the connection closed: whatever error closing it raises comes too late.
      const refuse = (message: string) => { fail(new Refused(message)); req.destroy(); };
      const timer = setTimeout(() => refuse(MESSAGES.timeout(timeoutMs)), Math.max(0, deadline - Date.now()));
      req.on('error', fail);
      req.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        res.on('error', fail);
        if (REDIRECTS.has(status) && typeof res.headers.location === 'string') {
          settled = true;
          clearTimeout(timer);
          resolve({ location: res.headers.location });
          return req.destroy();
        }
        if (status !== 200) return refuse(MESSAGES.status(status));
        if (Number(res.headers['content-length'] ?? 0) > maxBytes) return refuse(MESSAGES.tooBig(maxBytes));
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) refuse(MESSAGES.tooBig(maxBytes));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ bytes: Buffer.concat(chunks) });
        });
      });
      req.end();
    });
  }

  /** The resolver for one connection: every address the name resolves to must be public (unless the policy allows the name). */
  #lookup(host: string): LookupFunction {
    const resolve = this.#policy.lookup ?? systemLookup;
    const mayBePrivate = (this.#policy.privateHosts ?? []).includes(host.toLowerCase());
    return (hostname, options, callback) => {
      resolve(hostname, { ...options, all: true }, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
        if (err || addresses.length === 0) return callback(new Refused(MESSAGES.unresolved), '', 4);
        if (!mayBePrivate && addresses.some((a) => !isPublicAddress(a.address))) return callback(new Refused(MESSAGES.privateHost), '', 4);
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    };
  }
}
