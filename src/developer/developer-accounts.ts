import { randomBytes } from 'node:crypto';
import type { DeveloperAccount, DeveloperEvent } from '../../adapters/store.js';
import { EMAIL_MAX_LENGTH, emailProblem, normaliseEmail } from '../formats/email-address.js';
import { hasControlCharacter, reordersText } from '../formats/unseen-characters.js';
import { hashCredential, SIGN_IN_WAIT, verifyAgainstDummy, verifyCredential } from '../accounts/credential-hasher.js';
import { withStoreLock } from '../accounts/store-lock.js';
import { SecondFactors } from '../accounts/second-factor.js';
import { type Actor, actorOf } from './actor.js';
import { ApiTokens } from './api-tokens.js';
import type { DeveloperDeps } from './deps.js';
import { developerSecondFactor } from './developer-second-factor.js';
import { normalisePassword, passwordProblem } from './developer-password.js';
import { ConflictError, type FieldProblem, ValidationError } from './errors.js';

/** An account change reads and writes one record: a few store round trips. */
const ACCOUNT_LOCK = { ttlMs: 10_000, waitMs: 10_000 };

export type AccountsDeps = Pick<DeveloperDeps, 'store' | 'clock' | 'keyEncryptionKey' | 'log'>;

export interface NewAccount { email: string; displayName: string; password: string }

/** How an account came to be, for its history. */
export type Origin = { how: 'invitation'; invitedBy: string } | { how: 'sign-up' };

export type SecondFactor = 'totp' | 'recovery code';

export const NAME_MAX_LENGTH = 100;

/**
 * The guessing protection's "organisations" for developer accounts (src/accounts/login-throttle.ts): the
 * password and the second step are counted apart (each has its own waits and its own stop), and neither
 * shares a count with any school. The username is the email, lower-cased.
 */
export const THROTTLE_SCOPE = { password: 'developer-area', secondFactor: 'developer-area-second-factor' } as const;

/** Emails are compared as the store keys them, and checked as everywhere (src/formats/email-address.ts). */
export { EMAIL_MAX_LENGTH, emailProblem, normaliseEmail };

export function nameProblem(name: string): string | undefined {
  if (!name) return 'Enter the name other developers will see.';
  if ([...name].length > NAME_MAX_LENGTH) return `Keep the name to ${NAME_MAX_LENGTH} characters or fewer.`;
  if (hasControlCharacter(name)) return 'The name cannot contain control characters.';
  if (reordersText(name)) return 'The name cannot contain characters that change the direction of text.';
  return undefined;
}

/**
 * Developer accounts (docs/developer-area.md): separate from school users; a password (argon2id) and an optional RFC 6238
 * second factor with recovery codes. These accounts control apps' callback URLs, so they are privileged: every
 * change is recorded on the account's history (`developer:<id>`, never a secret), and a change of password or
 * second factor ends the account's other sessions (sessionsValidAfter, and the session records are removed).
 */
export class DeveloperAccounts {
  readonly #factors: SecondFactors;

  constructor(private readonly deps: AccountsDeps) {
    this.#factors = new SecondFactors(deps);
  }

  #now = () => this.deps.clock.now().toISOString();

  /** Field problems of a new account's details (paths are the form's field names). */
  problems(input: NewAccount): FieldProblem[] {
    const email = normaliseEmail(input.email);
    const displayName = input.displayName.trim();
    const out: FieldProblem[] = [];
    const e = emailProblem(input.email);
    if (e) out.push({ path: 'email', message: e });
    const n = nameProblem(displayName);
    if (n) out.push({ path: 'displayName', message: n });
    const p = passwordProblem(input.password, { email, displayName });
    if (p) out.push({ path: 'password', message: p });
    return out;
  }

  /** Creates the account: ValidationError for bad details, ConflictError when the email has an account. */
  async create(input: NewAccount, origin: Origin): Promise<DeveloperAccount> {
    const problems = this.problems(input);
    if (problems.length) throw new ValidationError(problems);
    const email = normaliseEmail(input.email);
    if (await this.deps.store.findDeveloperByEmail(email)) throw new ConflictError('an account with this email already exists');
    const now = this.#now();
    const account: DeveloperAccount = {
      id: `dev_${randomBytes(16).toString('base64url')}`,
      email,
      displayName: input.displayName.trim(),
      passwordHash: await hashCredential(normalisePassword(input.password)),
      // An invitation's link went to the address's owner alone: the address is theirs. Open sign-up checks nothing.
      emailVerifiedAt: origin.how === 'invitation' ? now : undefined,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.deps.store.createDeveloper(account))) throw new ConflictError('an account with this email already exists');
    await this.#record(account, actorOf(account), 'account.created',
      origin.how === 'invitation' ? { via: 'invitation', invitedBy: origin.invitedBy } : { via: 'sign-up' });
    this.deps.log.info({ event: 'developer.created', developerId: account.id, via: origin.how }, 'developer account created');
    return account;
  }

  find(id: string): Promise<DeveloperAccount | undefined> {
    return this.deps.store.findDeveloper(id);
  }

  findByEmail(email: string): Promise<DeveloperAccount | undefined> {
    return this.deps.store.findDeveloperByEmail(normaliseEmail(email));
  }

  /**
   * The account with this email whose password this is, or undefined. An unknown email costs the same argon2id
   * verification as a known one, so the time taken does not tell who has an account. Both reject with
   * LimiterBusyError, rather than queue, when the machine is saturated with sign-ins (SIGN_IN_MAX_WAIT_MS).
   */
  async checkPassword(email: string, password: string): Promise<DeveloperAccount | undefined> {
    const account = await this.findByEmail(email);
    if (!account) {
      await verifyAgainstDummy(normalisePassword(password), SIGN_IN_WAIT);
      return undefined;
    }
    return (await this.passwordMatches(account, password)) ? account : undefined;
  }

  passwordMatches(account: DeveloperAccount, password: string): Promise<boolean> {
    return verifyCredential(account.passwordHash, normalisePassword(password), SIGN_IN_WAIT);
  }

  async rename(account: DeveloperAccount, displayName: string): Promise<DeveloperAccount> {
    const name = displayName.trim();
    const problem = nameProblem(name);
    if (problem) throw new ValidationError([{ path: 'displayName', message: problem }]);
    if (name === account.displayName) return account;
    const updated = await this.#patch(account, () => ({ displayName: name }));
    await this.#record(updated, actorOf(updated), 'account.renamed', { from: account.displayName, to: name });
    return updated;
  }

  /** A new password (its rule checked); every session of the account ends (the caller starts this browser's again). */
  async changePassword(account: DeveloperAccount, password: string): Promise<DeveloperAccount> {
    const problem = passwordProblem(password, account);
    if (problem) throw new ValidationError([{ path: 'newPassword', message: problem }]);
    const passwordHash = await hashCredential(normalisePassword(password));
    const { updated } = await this.#endingSessions(account, { passwordHash });
    await this.#record(updated, actorOf(updated), 'password.changed', {});
    this.deps.log.info({ event: 'developer.password_changed', developerId: account.id }, 'developer password changed');
    return updated;
  }

  /**
   * Turns the second factor on with `secret`, once `code` shows the developer's app has it. Returns the new
   * recovery codes (shown once). Every session ends; the caller starts this browser's again.
   */
  async enableTotp(account: DeveloperAccount, secret: string, code: string): Promise<{ account: DeveloperAccount; recoveryCodes: string[] }> {
    const factor = this.#factor(account);
    const recoveryCodes = await this.#factors.enable(factor.records, secret, code);
    if (!recoveryCodes) {
      throw new ValidationError([{ path: 'code', message: 'That code does not match. Check the time on your phone and enter the newest code.' }]);
    }
    const updated = factor.latest();
    await this.#record(updated, actorOf(updated), 'totp.enabled', {});
    this.deps.log.info({ event: 'developer.totp_enabled', developerId: account.id }, 'developer second factor on');
    return { account: updated, recoveryCodes };
  }

  /** Turns the second factor off (the caller has checked the password). Every session ends. */
  async disableTotp(account: DeveloperAccount): Promise<DeveloperAccount> {
    const factor = this.#factor(account);
    await this.#factors.disable(factor.records);
    const updated = factor.latest();
    await this.#record(updated, actorOf(updated), 'totp.disabled', {});
    this.deps.log.info({ event: 'developer.totp_disabled', developerId: account.id }, 'developer second factor off');
    return updated;
  }

  /** Ten new recovery codes; the old ones stop working. */
  async regenerateRecoveryCodes(account: DeveloperAccount): Promise<{ account: DeveloperAccount; recoveryCodes: string[] }> {
    const factor = this.#factor(account);
    const recoveryCodes = await this.#factors.replaceRecoveryCodes(factor.records);
    if (!recoveryCodes) throw new ConflictError('two-step sign-in is off');
    const updated = factor.latest();
    await this.#record(updated, actorOf(updated), 'recovery_codes.regenerated', {});
    return { account: updated, recoveryCodes };
  }

  /**
   * Checks the second step of a sign-in: a current TOTP code (never one already used) or an unused recovery
   * code (then used up). Undefined when it is neither.
   */
  async verifySecondFactor(account: DeveloperAccount, typed: string): Promise<SecondFactor | undefined> {
    const factor = this.#factor(account);
    const made = await this.#factors.verify(factor.records, typed);
    if (made?.how !== 'recovery_code') return made?.how;
    const fresh = factor.latest();
    await this.#record(fresh, actorOf(fresh), 'recovery_code.used', { remaining: String(made.remaining) });
    this.deps.log.info({ event: 'developer.recovery_code_used', developerId: account.id, remaining: made.remaining }, 'recovery code used');
    return 'recovery code';
  }

  /** "Sign out everywhere" (or the operator's `lanyard developers signout`): every session and API token ends. */
  async endSessions(account: DeveloperAccount, actor: Actor = actorOf(account)): Promise<{ account: DeveloperAccount; revokedTokens: number }> {
    const { updated, revokedTokens } = await this.#endingSessions(account, {}, actor);
    await this.#record(updated, actor, 'sessions.ended', {});
    this.deps.log.info({ event: 'developer.signed_out_everywhere', developerId: account.id, by: actor.id, revokedTokens }, 'developer signed out everywhere');
    return { account: updated, revokedTokens };
  }

  /** Whether `code` is a current TOTP code of the account, not used before (never a recovery code): making an API token asks for one. */
  totpCodeMatches(account: DeveloperAccount, code: string): Promise<boolean> {
    return this.#factors.totpCodeMatches(this.#factor(account).records, code);
  }

  /** A sign-in, on the account's history (with how the second step was made). */
  recordSignIn(account: DeveloperAccount, secondFactor: SecondFactor | undefined): Promise<void> {
    return this.#record(account, actorOf(account), 'signed_in', { secondFactor: secondFactor ?? 'none' });
  }

  /** The account's history, newest first. */
  history(account: DeveloperAccount, limit = 50): Promise<DeveloperEvent[]> {
    return this.deps.store.listDeveloperEvents(`developer:${account.id}`, limit);
  }

  /**
   * Stores `patch` with sessionsValidAfter now, removes the account's session records (and half-done sign-ins)
   * and revokes its API tokens (docs/developer-area.md → Getting an account). From the first write on, no token
   * made before it verifies (ApiTokens.verifyRecord), so a failure part-way never leaves one working.
   */
  async #endingSessions(account: DeveloperAccount, patch: Partial<DeveloperAccount>, actor = actorOf(account)) {
    const updated = await this.#patch(account, () => ({ ...patch, sessionsValidAfter: this.#now() }));
    await this.deps.store.oidc.revokeByAccountId(account.id);
    return { updated, revokedTokens: await new ApiTokens(this.deps).revokeAll(updated, actor) };
  }

  /**
   * Applies a change to the account as it is stored NOW, under the account's lock: two changes at once (a
   * recovery code used while new codes are made, a rename during a password change) never write back what
   * the other replaced. `account` is what the caller read; only its id is trusted.
   */
  async #patch(account: DeveloperAccount, patch: (stored: DeveloperAccount) => Partial<DeveloperAccount>): Promise<DeveloperAccount> {
    return withStoreLock(this.deps.store, `developer-account:${account.id}`, ACCOUNT_LOCK, async () => {
      const stored = (await this.find(account.id)) ?? account;
      const updated = { ...stored, ...patch(stored), updatedAt: this.#now() };
      await this.deps.store.updateDeveloper(updated);
      return updated;
    });
  }

  /** The account's second factor as the shared service works on it (developer-second-factor.ts). */
  #factor(account: DeveloperAccount) {
    return developerSecondFactor(this.deps.store, account, {
      patch: (change) => this.#patch(account, change),
      endingSessions: async (change) => (await this.#endingSessions(account, change)).updated,
    });
  }

  #record(account: DeveloperAccount, actor: Actor, action: string, detail: DeveloperEvent['detail']): Promise<void> {
    return this.deps.store.appendDeveloperEvent({
      subject: `developer:${account.id}`, at: this.#now(), actorId: actor.id, actorName: actor.name, action, detail,
    });
  }
}
