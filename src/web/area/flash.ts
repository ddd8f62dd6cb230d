import type { FastifyReply, FastifyRequest } from 'fastify';
import { signValue, verifySignedValue } from '../../http/signed-value.js';
import { type AreaCookies, cookieOf } from './area-cookies.js';

const FLASH_SECONDS = 60;

/**
 * A one-time message for the next page of a signed-in area (after a 303): kept in a short-lived cookie,
 * signed (it is not a secret, but no one else may put words on Lanyard's page). `lanyard_<area>_flash`.
 */
export class Flash {
  readonly #cookie: string;
  readonly #purpose: string;

  constructor(private readonly cookies: AreaCookies, private readonly cookieKeys: readonly string[], area: string) {
    this.#cookie = `lanyard_${area}_flash`;
    this.#purpose = `${area}-flash`;
  }

  set(reply: FastifyReply, message: string): void {
    const value = signValue(this.cookieKeys, this.#purpose, Buffer.from(message, 'utf8').toString('base64url'));
    this.cookies.set(reply, this.#cookie, value, FLASH_SECONDS);
  }

  /** Reads (and clears) the message. */
  take(req: FastifyRequest, reply: FastifyReply): string | undefined {
    const value = cookieOf(req, this.#cookie);
    if (!value) return undefined;
    this.cookies.clear(reply, this.#cookie);
    const message = verifySignedValue(this.cookieKeys, this.#purpose, value);
    return message === undefined ? undefined : Buffer.from(message, 'base64url').toString('utf8');
  }
}
