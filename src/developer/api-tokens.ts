import type { DeveloperAccount, DeveloperApiToken } from '../../adapters/store.js';
import { type PersonalTokenKind, PersonalTokens } from '../accounts/personal-token-service.js';
import {
  DAY_MS, parsePersonalToken, PERSONAL_TOKEN_DEFAULT_DAYS, PERSONAL_TOKEN_LABEL_MAX, PERSONAL_TOKEN_MAX_DAYS,
  personalTokenLabelProblem, validPersonalTokenDays,
} from '../accounts/personal-tokens.js';
import { type Actor, actorOf } from './actor.js';
import type { DeveloperDeps } from './deps.js';
import { ConflictError, NotFoundError, ValidationError } from './errors.js';

/**
 * The longest life a personal API token may have, and the default (docs/developer-area.md → The JSON API): a
 * token acts as the developer without a second factor, so a leaked one is limited to a quarter of a year at
 * most, a month unless chosen; a script that runs for longer gets a new token, made with the password again.
 * The shape and limits are every personal token's (src/accounts/personal-tokens.ts).
 */
export const API_TOKEN_MAX_DAYS = PERSONAL_TOKEN_MAX_DAYS;
export const API_TOKEN_DEFAULT_DAYS = PERSONAL_TOKEN_DEFAULT_DAYS;
export const API_TOKEN_LABEL_MAX = PERSONAL_TOKEN_LABEL_MAX;
/**
 * Unexpired tokens one developer may hold at once: enough for every script and machine they run, few enough
 * that a leaked session cannot mint an unbounded number of long-lived credentials.
 */
export const API_TOKEN_MAX_ACTIVE = 50;

const PREFIX = 'lyd_';

export interface TokenInput { label: string; expiresInDays?: number | undefined }

/** `lyd_<id>_<secret>` split into its id and secret; undefined for anything else. */
export const parseApiToken = (token: string): { id: string; secret: string } | undefined => parsePersonalToken(PREFIX, token);

/** The developer area's personal tokens where the store keeps them (src/accounts/personal-token-service.ts). */
const developerTokens = (store: DeveloperDeps['store']): PersonalTokenKind<DeveloperApiToken, DeveloperAccount> => ({
  prefix: PREFIX,
  maxActive: API_TOKEN_MAX_ACTIVE,
  log: { event: 'developer.token', owner: 'developerId', what: 'API token' },
  ownerOf: (t) => t.developerId,
  record: (developerId, fields) => ({ ...fields, developerId }),
  put: (t) => store.putApiToken(t),
  find: (id) => store.findApiToken(id),
  list: (developerId) => store.listApiTokens(developerId),
  delete: (developerId, id) => store.deleteApiToken(developerId, id),
  touch: (id, at) => store.touchApiToken(id, at),
  owner: (developerId) => store.findDeveloper(developerId),
  sessionsEndedAt: (d) => (d.sessionsValidAfter ? Date.parse(d.sessionsValidAfter) : undefined),
});

/**
 * Personal API tokens for /developer/api: `lyd_<id>_<secret>` (256-bit secret), shown once, stored as a
 * SHA-256 hash, with a label and an expiry; revocable (the shared service: src/accounts/personal-token-service.ts).
 * An expired or revoked token, one whose developer is gone, or one made before the developer's sessions
 * ended, verifies as nothing. Creating and revoking are recorded on the developer's history
 * (`developer:<id>`), with label and hint only.
 */
export class ApiTokens {
  readonly #tokens: PersonalTokens<DeveloperApiToken, DeveloperAccount>;

  constructor(readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'>) {
    this.#tokens = new PersonalTokens(deps, developerTokens(deps.store));
  }

  /**
   * `notAfter`: when the request was made with a token, that token's expiry. A token never makes one that
   * outlives it, so a leaked short-lived token (a CI job's) cannot mint itself a long life.
   */
  async create(developer: DeveloperAccount, input: TokenInput, notAfter?: string): Promise<{ token: string; record: DeveloperApiToken }> {
    const { label, days } = this.check(input, notAfter);
    const made = await this.#tokens.create(developer.id, developer, { label, days });
    if (!made) throw new ConflictError(`you already have ${API_TOKEN_MAX_ACTIVE} active API tokens; revoke one you no longer use first`);
    await this.#record(developer.id, actorOf(developer), 'token.created', made.record);
    return made;
  }

  /**
   * The label and days of a token as create() would make it, or a ValidationError: checked before the password
   * is asked for again, so a form with a mistake costs no try.
   */
  check(input: TokenInput, notAfter?: string): { label: string; days: number } {
    const label = validLabel(input.label);
    const days = validDays(input.expiresInDays);
    if (notAfter !== undefined && this.deps.clock.now().getTime() + days * DAY_MS > Date.parse(notAfter)) {
      throw new ValidationError([{
        path: 'expires_in_days',
        message: `a token can only make tokens that expire before it does (${notAfter}); ask for fewer days, or create the token in the developer area`,
      }]);
    }
    return { label, days };
  }

  /** The developer's tokens, oldest first, expired ones included (so people see why a script stopped). */
  list(developerId: string): Promise<DeveloperApiToken[]> {
    return this.#tokens.list(developerId);
  }

  /** NotFoundError when the developer has no such token. `actor`: the operator, when not the developer. */
  async revoke(developer: DeveloperAccount, tokenId: string, actor: Actor = actorOf(developer)): Promise<void> {
    const record = await this.#tokens.revoke(developer.id, tokenId, actor.id);
    if (!record) throw new NotFoundError('no such API token');
    await this.#record(developer.id, actor, 'token.revoked', record);
  }

  /** Revokes every token of the developer (their sessions ended: DeveloperAccounts); returns how many. */
  async revokeAll(developer: DeveloperAccount, actor: Actor): Promise<number> {
    let n = 0;
    for (const t of await this.list(developer.id)) {
      try {
        await this.revoke(developer, t.id, actor);
        n += 1;
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err; // revoked meanwhile
      }
    }
    return n;
  }

  /**
   * The developer a presented token belongs to, or undefined (malformed, unknown, wrong secret, expired,
   * revoked, developer deleted, made before their sessions ended). Store failures propagate: a script is told
   * "try again" (503), not "your token is bad".
   */
  async verify(token: string): Promise<DeveloperAccount | undefined> {
    return (await this.verifyRecord(token))?.developer;
  }

  /** verify(), with the token's record (its expiry caps the tokens it may create); its use noted. */
  async verifyRecord(token: string): Promise<{ developer: DeveloperAccount; record: DeveloperApiToken } | undefined> {
    const verified = await this.#tokens.verify(token);
    if (!verified) return undefined;
    await this.#tokens.touch(verified.record);
    return { developer: verified.owner, record: verified.record };
  }

  #record(developerId: string, actor: Actor, action: string, record: DeveloperApiToken): Promise<void> {
    return this.deps.store.appendDeveloperEvent({
      subject: `developer:${developerId}`,
      at: this.deps.clock.now().toISOString(),
      actorId: actor.id,
      actorName: actor.name,
      action,
      detail: { label: record.label, hint: record.hint },
    });
  }
}

const LABEL_PROBLEMS = {
  missing: 'give the token a label, so you know later what uses it',
  too_long: `the label may be at most ${API_TOKEN_LABEL_MAX} characters`,
  not_one_line: 'the label must be one line of text',
} as const;

function validLabel(raw: unknown): string {
  const label = typeof raw === 'string' ? raw.trim() : '';
  const problem = personalTokenLabelProblem(label);
  if (problem) throw new ValidationError([{ path: 'label', message: LABEL_PROBLEMS[problem] }]);
  return label;
}

function validDays(raw: number | undefined): number {
  if (raw === undefined) return API_TOKEN_DEFAULT_DAYS;
  if (!validPersonalTokenDays(raw)) {
    throw new ValidationError([{ path: 'expires_in_days', message: `the expiry must be a whole number of days from 1 to ${API_TOKEN_MAX_DAYS}` }]);
  }
  return raw;
}
