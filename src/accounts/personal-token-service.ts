import type { FastifyBaseLogger } from 'fastify';
import type { DeveloperApiToken, StaffApiToken } from '../../adapters/store.js';
import { clientSecretMatches } from '../clients/client-secret.js';
import type { Clock } from '../clock.js';
import {
  DAY_MS, newPersonalToken, parsePersonalToken, PERSONAL_TOKEN_DEFAULT_DAYS, PERSONAL_TOKEN_TOUCH_INTERVAL_MS, personalTokenEndsAt,
} from './personal-tokens.js';

/** What every personal token's record holds: the store's two kinds, less whose it is. */
export type PersonalTokenRecord = Omit<DeveloperApiToken, 'developerId'> & Omit<StaffApiToken, 'userId'>;

/**
 * One kind of personal token where its area keeps them, and whose they are: the store operations each area
 * provides (a developer's `lyd_…`, a member of staff's `lys_…`). `O` is the person a token acts as.
 */
export interface PersonalTokenKind<R extends PersonalTokenRecord, O> {
  /** The tokens' prefix: `lyd_`, `lys_`. */
  prefix: string;
  /** Working tokens one person may hold at once. */
  maxActive: number;
  /** Its log events' prefix (`developer.token` → `developer.token_created`) and the field naming the person. */
  log: { event: string; owner: string; what: string };
  /** Whose the record is. */
  ownerOf(record: R): string;
  /** The record of a new token of `ownerId`. */
  record(ownerId: string, fields: PersonalTokenRecord): R;
  put(record: R): Promise<void>;
  find(id: string): Promise<R | undefined>;
  /** The person's tokens, oldest first, those that no longer work included. */
  list(ownerId: string): Promise<R[]>;
  /** false when the person had no such token. */
  delete(ownerId: string, id: string): Promise<boolean>;
  touch(id: string, at: string): Promise<void>;
  /** The person, or undefined when they are gone. */
  owner(ownerId: string): Promise<O | undefined>;
  /** When the person's sessions last ended (epoch ms): a token made before then no longer works. */
  sessionsEndedAt(owner: O): number | undefined;
}

export interface PersonalTokenDeps {
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info'>;
}

/**
 * Personal API tokens, for developers and school staff alike (src/accounts/personal-tokens.ts: their shape
 * and limits): shown once, kept as a SHA-256 hash, with a label and 1 to 90 days of life; found by their id,
 * compared in constant time; never working past their expiry, nor once their person's sessions have ended.
 * What an area records of them (a developer's history, a school's audit trail) and what else a person must be
 * to act (staff, not suspended) are the area's.
 */
export class PersonalTokens<R extends PersonalTokenRecord, O> {
  constructor(private readonly deps: PersonalTokenDeps, private readonly kind: PersonalTokenKind<R, O>) {}

  /** When the token stops working (epoch ms): its expiry, or earlier when its person's sessions ended after it was made. */
  endsAt(record: R, owner: O): number {
    const ends = personalTokenEndsAt(record);
    const after = this.kind.sessionsEndedAt(owner);
    return after !== undefined && Date.parse(record.createdAt) < after ? Math.min(ends, after) : ends;
  }

  /** A new token (the caller checked the label and days, and who asks). Undefined when they hold too many that work. */
  async create(ownerId: string, owner: O, input: { label: string; days?: number | undefined }): Promise<{ token: string; record: R } | undefined> {
    const now = this.deps.clock.now();
    const working = (await this.kind.list(ownerId)).filter((t) => this.endsAt(t, owner) > now.getTime());
    if (working.length >= this.kind.maxActive) return undefined;
    const { id, token, hash, hint } = newPersonalToken(this.kind.prefix);
    const record = this.kind.record(ownerId, {
      id, hash, label: input.label, hint,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + (input.days ?? PERSONAL_TOKEN_DEFAULT_DAYS) * DAY_MS).toISOString(),
    });
    await this.kind.put(record);
    const { event, owner: field, what } = this.kind.log;
    this.deps.log.info({ event: `${event}_created`, [field]: ownerId, tokenId: id, expiresAt: record.expiresAt }, `${what} created`);
    return { token, record };
  }

  /** The person's tokens, oldest first, those that no longer work included (so they see why a script stopped). */
  list(ownerId: string): Promise<R[]> {
    return this.kind.list(ownerId);
  }

  /** Revokes one of the person's own tokens: its record, or undefined when they have no such token. `by`: who, when not them. */
  async revoke(ownerId: string, tokenId: string, by = ownerId): Promise<R | undefined> {
    const record = await this.kind.find(tokenId);
    // Another person's token is "no such token": never confirm that an id exists.
    if (!record || this.kind.ownerOf(record) !== ownerId || !(await this.kind.delete(ownerId, tokenId))) return undefined;
    const { event, owner: field, what } = this.kind.log;
    this.deps.log.info({ event: `${event}_revoked`, [field]: ownerId, tokenId, by }, `${what} revoked`);
    return record;
  }

  /**
   * The record and person of a working token: well formed, known, its hash matching (in constant time), not
   * expired, made after the person's sessions last ended. Undefined otherwise, never saying why (the log
   * does). Store failures propagate: a script is told "try again" (503), not "your token is bad". Then touch().
   */
  async verify(token: string): Promise<{ record: R; owner: O } | undefined> {
    const parsed = parsePersonalToken(this.kind.prefix, token);
    if (!parsed) return undefined;
    const record = await this.kind.find(parsed.id);
    const { event, owner: field, what } = this.kind.log;
    const refused = (reason: string) => {
      this.deps.log.info({ event: `${event}_refused`, tokenId: parsed.id, ...(record ? { [field]: this.kind.ownerOf(record) } : {}), reason }, `${what} refused`);
      return undefined;
    };
    if (!record || !clientSecretMatches(record.hash, token)) return refused(record ? 'mismatch' : 'unknown');
    if (personalTokenEndsAt(record) <= this.deps.clock.now().getTime()) return refused('expired');
    const owner = await this.kind.owner(this.kind.ownerOf(record));
    if (owner === undefined) return refused('owner_gone');
    const after = this.kind.sessionsEndedAt(owner);
    // Tokens end with the sessions (a password changed, two-step sign-in turned on or off, signed out
    // everywhere): one made before is refused even if its revocation, where there is one, has not run yet.
    if (after !== undefined && Date.parse(record.createdAt) < after) return refused('sessions_ended');
    return { record, owner };
  }

  /** Notes that the token was used now (lastUsedAt, a reminder for people: at most one write a minute). */
  async touch(record: R): Promise<void> {
    const now = this.deps.clock.now();
    if (!record.lastUsedAt || now.getTime() - Date.parse(record.lastUsedAt) >= PERSONAL_TOKEN_TOUCH_INTERVAL_MS) {
      await this.kind.touch(record.id, now.toISOString());
    }
  }
}
