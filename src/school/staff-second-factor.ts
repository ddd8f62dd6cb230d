import type { StaffSecondFactor, User } from '../../adapters/store.js';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from '../accounts/recovery-codes.js';
import { looksLikeTotpCode, matchTotp } from '../accounts/totp.js';
import { decryptPrivateKey, encryptPrivateKey } from '../keys/key-crypto.js';
import type { StaffMember } from './access.js';
import type { SchoolDeps } from './deps.js';
import { recordStaffEvent } from './staff-events.js';

/** How the second step of a sign-in was made. */
export type SecondStep = 'totp' | 'recovery_code';

export type SecondFactorDeps = Pick<SchoolDeps, 'store' | 'clock' | 'keyEncryptionKey' | 'audit'>;

/**
 * Staff's two-step sign-in (docs/school-console.md → Signing in and your account): an RFC 6238 secret
 * (src/accounts/totp.ts), encrypted under the key-encryption key and bound to its user, and ten single-use
 * recovery codes kept as SHA-256 hashes. A TOTP code is accepted once: the step it matched must be later than
 * the last one accepted (advanceStaffTotpStep, atomic in the store, so two instances cannot both accept it). A
 * recovery code is spent atomically (spendStaffRecoveryCode): two sign-ins presenting it at once, one wins.
 * Turning it on or off and replacing the codes are recorded in the audit trail of the person's schools.
 */
export class StaffSecondFactors {
  constructor(private readonly deps: SecondFactorDeps) {}

  get(userId: string): Promise<StaffSecondFactor | undefined> {
    return this.deps.store.getStaffSecondFactor(userId);
  }

  /**
   * Turns two-step sign-in on with `secret`, once `code` shows the person's app has it (the step it matched is
   * then used up). The new recovery codes (shown once), or undefined when the code does not match.
   */
  async enable(member: StaffMember, secret: string, code: string): Promise<string[] | undefined> {
    const step = matchTotp(secret, code, this.deps.clock.now());
    if (step === undefined) return undefined;
    const recoveryCodes = newRecoveryCodes();
    const userId = member.user.id;
    await this.deps.store.putStaffSecondFactor({
      userId,
      totpSecret: encryptPrivateKey(this.deps.keyEncryptionKey, totpAad(userId), secret),
      recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode),
      enabledAt: this.deps.clock.now().toISOString(),
      lastStep: step,
    });
    recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'two_step.enabled' });
    return recoveryCodes;
  }

  /** Turns two-step sign-in off (the caller has checked who asks, and that they may). */
  async disable(member: StaffMember): Promise<void> {
    if (await this.deps.store.deleteStaffSecondFactor(member.user.id)) {
      recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'two_step.disabled' });
    }
  }

  /** Ten new recovery codes (shown once); the old ones stop working. Undefined when two-step sign-in is off. */
  async replaceRecoveryCodes(member: StaffMember): Promise<string[] | undefined> {
    const factor = await this.get(member.user.id);
    if (!factor) return undefined;
    const recoveryCodes = newRecoveryCodes();
    await this.deps.store.putStaffSecondFactor({ ...factor, recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode) });
    recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'recovery_codes.replaced' });
    return recoveryCodes;
  }

  /**
   * The second step of a sign-in: a current TOTP code never accepted before, or an unused recovery code (then
   * spent). Which it was, or undefined when it is neither. A recovery code used is recorded, with how many are left.
   */
  async verify(member: StaffMember, typed: string): Promise<SecondStep | undefined> {
    const factor = await this.get(member.user.id);
    if (!factor) return undefined;
    if (looksLikeTotpCode(typed)) return (await this.#totpMatches(factor, typed)) ? 'totp' : undefined;
    if (!looksLikeRecoveryCode(typed)) return undefined;
    if (!(await this.deps.store.spendStaffRecoveryCode(member.user.id, hashRecoveryCode(typed)))) return undefined;
    const left = (await this.get(member.user.id))?.recoveryCodeHashes.length ?? 0;
    recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'recovery_code.used', detail: { remaining: String(left) } });
    return 'recovery_code';
  }

  /** Whether `code` is a current TOTP code of the user, never accepted before (a recovery code is not). */
  async totpCodeMatches(user: Pick<User, 'id'>, code: string): Promise<boolean> {
    const factor = await this.get(user.id);
    return factor !== undefined && looksLikeTotpCode(code) && this.#totpMatches(factor, code);
  }

  async #totpMatches(factor: StaffSecondFactor, code: string): Promise<boolean> {
    const secret = decryptPrivateKey(this.deps.keyEncryptionKey, totpAad(factor.userId), factor.totpSecret);
    const step = matchTotp(secret, code, this.deps.clock.now());
    // RFC 6238 §5.2: never the same code twice, nor one older than a code already used.
    return step !== undefined && this.deps.store.advanceStaffTotpStep(factor.userId, step);
  }
}

/** Binds an encrypted secret to its user: a sealed secret copied to another user does not decrypt. */
const totpAad = (userId: string) => `staff-totp:${userId}`;
