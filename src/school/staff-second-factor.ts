import type { StaffSecondFactor, User } from '../../adapters/store.js';
import { type SecondFactorRecords, SecondFactors, type SecondStepMade } from '../accounts/second-factor.js';
import type { StaffMember } from './access.js';
import type { SchoolDeps } from './deps.js';
import { recordStaffEvent } from './staff-events.js';

/** How the second step of a sign-in was made. */
export type SecondStep = SecondStepMade['how'];

export type SecondFactorDeps = Pick<SchoolDeps, 'store' | 'clock' | 'keyEncryptionKey' | 'audit'>;

/**
 * Staff's two-step sign-in (docs/school-console.md → Signing in and your account): the shared service
 * (src/accounts/second-factor.ts) over the member of staff's record in the store. A TOTP code is accepted
 * once: the step it matched must be later than the last one accepted (advanceStaffTotpStep, atomic in the
 * store, so two instances cannot both accept it). A recovery code is spent atomically (spendStaffRecoveryCode):
 * two sign-ins presenting it at once, one wins. Turning it on or off ends every session of the person (the
 * console elsewhere, their apps, their API tokens: store.endSessions; the caller re-issues this browser's
 * console session). Turning it on or off and replacing the codes are recorded in the audit trail of the
 * person's schools.
 */
export class StaffSecondFactors {
  readonly #factors: SecondFactors;

  constructor(private readonly deps: SecondFactorDeps) {
    this.#factors = new SecondFactors(deps);
  }

  get(userId: string): Promise<StaffSecondFactor | undefined> {
    return this.deps.store.getStaffSecondFactor(userId);
  }

  /**
   * Turns two-step sign-in on with `secret`, once `code` shows the person's app has it (the step it matched is
   * then used up). The new recovery codes (shown once), or undefined when the code does not match.
   */
  async enable(member: StaffMember, secret: string, code: string): Promise<string[] | undefined> {
    const codes = await this.#factors.enable(this.#records(member.user.id), secret, code);
    if (codes) recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'two_step.enabled' });
    return codes;
  }

  /** Turns two-step sign-in off (the caller has checked who asks, and that they may). */
  async disable(member: StaffMember): Promise<void> {
    if (await this.#factors.disable(this.#records(member.user.id))) {
      recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'two_step.disabled' });
    }
  }

  /** Ten new recovery codes (shown once); the old ones stop working. Undefined when two-step sign-in is off. */
  async replaceRecoveryCodes(member: StaffMember): Promise<string[] | undefined> {
    const codes = await this.#factors.replaceRecoveryCodes(this.#records(member.user.id));
    if (codes) recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'recovery_codes.replaced' });
    return codes;
  }

  /**
   * The second step of a sign-in: a current TOTP code never accepted before, or an unused recovery code (then
   * spent). Which it was, or undefined when it is neither. A recovery code used is recorded, with how many are left.
   */
  async verify(member: StaffMember, typed: string): Promise<SecondStep | undefined> {
    const made = await this.#factors.verify(this.#records(member.user.id), typed);
    if (made?.how === 'recovery_code') {
      recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'recovery_code.used', detail: { remaining: String(made.remaining) } });
    }
    return made?.how;
  }

  /** Whether `code` is a current TOTP code of the user, never accepted before (a recovery code is not). */
  totpCodeMatches(user: Pick<User, 'id'>, code: string): Promise<boolean> {
    return this.#factors.totpCodeMatches(this.#records(user.id), code);
  }

  /** The member of staff's second factor where the store keeps it (adapters/store/staff.ts). */
  #records(userId: string): SecondFactorRecords {
    const { store, clock } = this.deps;
    const read = () => store.getStaffSecondFactor(userId);
    return {
      aad: totpAad(userId),
      read,
      turnOn: async (factor, step) => {
        await store.putStaffSecondFactor({ userId, ...factor, enabledAt: clock.now().toISOString(), lastStep: step });
        await store.endSessions(userId);
        return true;
      },
      turnOff: async () => {
        const was = await store.deleteStaffSecondFactor(userId);
        if (was) await store.endSessions(userId);
        return was;
      },
      replaceRecoveryCodes: async (hashes) => {
        const factor = await read();
        if (factor) await store.putStaffSecondFactor({ ...factor, recoveryCodeHashes: hashes });
        return factor !== undefined;
      },
      acceptStep: (step) => store.advanceStaffTotpStep(userId, step),
      spendRecoveryCode: async (hash) => ((await store.spendStaffRecoveryCode(userId, hash)) ? (await read())?.recoveryCodeHashes.length ?? 0 : undefined),
    };
  }
}

/** Binds an encrypted secret to its user: a sealed secret copied to another user does not decrypt. */
const totpAad = (userId: string) => `staff-totp:${userId}`;
