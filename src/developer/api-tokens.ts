import type { DeveloperAccount, DeveloperApiToken } from '../../adapters/store.js';
import {
  DAY_MS, newPersonalToken, parsePersonalToken, PERSONAL_TOKEN_DEFAULT_DAYS, PERSONAL_TOKEN_LABEL_MAX, PERSONAL_TOKEN_MAX_DAYS,
  PERSONAL_TOKEN_TOUCH_INTERVAL_MS, personalTokenEndsAt, personalTokenLabelProblem, validPersonalTokenDays,
} from '../accounts/personal-tokens.js';
import { clientSecretMatches } from '../clients/client-secret.js';
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

/**
 * Personal API tokens for /developer/api: `lyd_<id>_<secret>` (256-bit secret), shown once, stored as a
 * SHA-256 hash, with a label and an expiry; revocable. Verification is by id lookup then constant-time hash
 * comparison; an expired or revoked token, or one whose developer is gone, verifies as nothing.
 * Creating and revoking are recorded on the developer's history (`developer:<id>`), with label and hint only.
 */
export class ApiTokens {
  constructor(readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'>) {}

  /**
   * `notAfter`: when the request was made with a token, that token's expiry. A token never makes one that
   * outlives it, so a leaked short-lived token (a CI job's) cannot mint itself a long life.
   */
  async create(developer: DeveloperAccount, input: TokenInput, notAfter?: string): Promise<{ token: string; record: DeveloperApiToken }> {
    const { label, days } = this.check(input, notAfter);
    const { store, clock, log } = this.deps;
    const now = clock.now();
    const active = (await store.listApiTokens(developer.id)).filter((t) => Date.parse(t.expiresAt) > now.getTime());
    if (active.length >= API_TOKEN_MAX_ACTIVE) {
      throw new ConflictError(`you already have ${API_TOKEN_MAX_ACTIVE} active API tokens; revoke one you no longer use first`);
    }
    const { id, token, hash, hint } = newPersonalToken(PREFIX);
    const record: DeveloperApiToken = {
      id,
      developerId: developer.id,
      hash,
      label,
      hint,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + days * DAY_MS).toISOString(),
    };
    await store.putApiToken(record);
    await store.appendDeveloperEvent({
      subject: `developer:${developer.id}`,
      at: record.createdAt,
      actorId: developer.id,
      actorName: developer.displayName,
      action: 'token.created',
      detail: { label: record.label, hint: record.hint },
    });
    log.info({ event: 'developer.token_created', developerId: developer.id, tokenId: id, expiresAt: record.expiresAt }, 'API token created');
    return { token, record };
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
    return this.deps.store.listApiTokens(developerId);
  }

  /** NotFoundError when the developer has no such token. `actor`: the operator, when not the developer. */
  async revoke(developer: DeveloperAccount, tokenId: string, actor: Actor = actorOf(developer)): Promise<void> {
    const { store, clock, log } = this.deps;
    const developerId = developer.id;
    const record = await store.findApiToken(tokenId);
    // Another developer's token is "no such token": never confirm that an id exists.
    if (!record || record.developerId !== developerId || !(await store.deleteApiToken(developerId, tokenId))) {
      throw new NotFoundError('no such API token');
    }
    await store.appendDeveloperEvent({
      subject: `developer:${developerId}`,
      at: clock.now().toISOString(),
      actorId: actor.id,
      actorName: actor.name,
      action: 'token.revoked',
      detail: { label: record.label, hint: record.hint },
    });
    log.info({ event: 'developer.token_revoked', developerId, tokenId, by: actor.id }, 'API token revoked');
  }

  /** Revokes every token of the developer (their sessions ended: DeveloperAccounts); returns how many. */
  async revokeAll(developer: DeveloperAccount, actor: Actor): Promise<number> {
    let n = 0;
    for (const t of await this.deps.store.listApiTokens(developer.id)) {
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
   * revoked, developer deleted). Store failures propagate: a script is told "try again" (503), not "your
   * token is bad".
   */
  async verify(token: string): Promise<DeveloperAccount | undefined> {
    return (await this.verifyRecord(token))?.developer;
  }

  /** verify(), with the token's record (its expiry caps the tokens it may create). */
  async verifyRecord(token: string): Promise<{ developer: DeveloperAccount; record: DeveloperApiToken } | undefined> {
    const { store, clock, log } = this.deps;
    const parsed = parseApiToken(token);
    if (!parsed) return undefined;
    const record = await store.findApiToken(parsed.id);
    if (!record || !clientSecretMatches(record.hash, token)) {
      log.info({ event: 'developer.token_refused', tokenId: parsed.id, reason: record ? 'mismatch' : 'unknown' }, 'API token refused');
      return undefined;
    }
    const now = clock.now();
    // A token made by an earlier release could live 365 days: none acts past API_TOKEN_MAX_DAYS from its making.
    if (personalTokenEndsAt(record) <= now.getTime()) {
      log.info({ event: 'developer.token_refused', tokenId: record.id, developerId: record.developerId, reason: 'expired' }, 'API token refused');
      return undefined;
    }
    const developer = await store.findDeveloper(record.developerId);
    if (!developer) {
      log.info({ event: 'developer.token_refused', tokenId: record.id, developerId: record.developerId, reason: 'developer_gone' }, 'API token refused');
      return undefined;
    }
    // Tokens end with the sessions (a password change, a second factor changed, signing out everywhere): one
    // made before that is refused even if its revocation has not run yet (docs/developer-area.md → Getting an account).
    if (developer.sessionsValidAfter && Date.parse(record.createdAt) < Date.parse(developer.sessionsValidAfter)) {
      log.info({ event: 'developer.token_refused', tokenId: record.id, developerId: record.developerId, reason: 'sessions_ended' }, 'API token refused');
      return undefined;
    }
    if (!record.lastUsedAt || now.getTime() - Date.parse(record.lastUsedAt) >= PERSONAL_TOKEN_TOUCH_INTERVAL_MS) {
      await store.touchApiToken(record.id, now.toISOString());
    }
    return { developer, record };
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
