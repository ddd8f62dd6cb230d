import { generateClientSecret, GENERATED_SECRET, secretKey } from '../clients/client-secret.js';
import type { DeveloperDeps } from './deps.js';

/** What every link's record holds: when it lapses (ISO 8601), and (epoch seconds) once it was used. */
export interface LinkRecord {
  [key: string]: unknown;
  expiresAt: string;
  consumed?: number;
}

/**
 * The records behind Lanyard's single-use links (a developer invitation, a team invitation): the link carries
 * a 256-bit random token; the store keeps the record under the token's SHA-256 only, for as long as the link
 * lasts, and uses it up atomically (two tabs answering at once: one wins). Lanyard sends no email: the
 * person who asked for the link hands it over.
 */
export class LinkRecords<T extends LinkRecord> {
  constructor(
    private readonly deps: Pick<DeveloperDeps, 'store' | 'clock'>,
    private readonly model: string,
    private readonly seconds: number,
  ) {}

  /** A new token for the record that `make` builds (given when the link lapses). */
  async issue(make: (now: Date, expiresAt: Date) => T): Promise<{ token: string; expiresAt: Date }> {
    const token = generateClientSecret();
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + this.seconds * 1000);
    await this.deps.store.oidc.upsert(this.model, secretKey(token), make(now, expiresAt), this.seconds);
    return { token, expiresAt };
  }

  /** The record behind a token (used or not); undefined when unknown, malformed or lapsed. */
  async find(token: string): Promise<T | undefined> {
    if (!GENERATED_SECRET.test(token)) return undefined;
    const record = (await this.deps.store.oidc.find(this.model, secretKey(token))) as T | undefined;
    if (!record || typeof record.expiresAt !== 'string') return undefined;
    return Date.parse(record.expiresAt) > this.deps.clock.now().getTime() ? record : undefined;
  }

  /** Uses the link up: true for the one caller that did, false when it was used already (or is gone). */
  consume(token: string): Promise<boolean> {
    return GENERATED_SECRET.test(token) ? this.deps.store.oidc.consume(this.model, secretKey(token)) : Promise.resolve(false);
  }
}
