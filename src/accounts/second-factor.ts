import type { Clock } from '../clock.js';
import { decryptPrivateKey, encryptPrivateKey } from '../keys/key-crypto.js';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import { looksLikeTotpCode, matchTotp } from './totp.js';

/** A second factor as its area stores it: the TOTP secret sealed, the unused recovery codes as SHA-256 hashes. */
export interface SealedSecondFactor {
  /** The shared secret, encrypted under the key-encryption key (bound to its person: SecondFactorRecords.aad). */
  totpSecret: string;
  recoveryCodeHashes: string[];
}

/**
 * One person's second factor where their area keeps it: the store operations each area provides (a developer
 * account's fields, a member of staff's record). What is shared — the codes, the sealing, the checks — is
 * SecondFactors'.
 */
export interface SecondFactorRecords {
  /** Binds the sealed secret to its person: a secret copied to someone else does not decrypt. */
  readonly aad: string;
  /** The factor as stored; undefined when it is off. */
  read(): Promise<SealedSecondFactor | undefined>;
  /**
   * Stores a new factor, `step` being the TOTP step its first code matched (used up from now on), and ends
   * every session and API token of the person: what the old sign-in protected goes with it. false when that
   * step was accepted before (a replay), and nothing is stored.
   */
  turnOn(factor: SealedSecondFactor, step: number): Promise<boolean>;
  /** Removes the factor and, when there was one, ends every session and API token of the person. false when off. */
  turnOff(): Promise<boolean>;
  /** Replaces the recovery codes (the old ones stop working). false when the factor is off. */
  replaceRecoveryCodes(hashes: string[]): Promise<boolean>;
  /**
   * Accepts `step` as a TOTP code's, atomically (two instances cannot both accept one): true when it is later
   * than every step accepted before; false for a replay or an older step (RFC 6238 §5.2).
   */
  acceptStep(step: number): Promise<boolean>;
  /** Spends the recovery code with this hash, atomically: how many are left, or undefined when it is not (or no longer) one. */
  spendRecoveryCode(hash: string): Promise<number | undefined>;
}

/** How the second step of a sign-in was made, with the recovery codes left after one was spent. */
export type SecondStepMade = { how: 'totp' } | { how: 'recovery_code'; remaining: number };

export interface SecondFactorDeps {
  clock: Clock;
  /** Seals TOTP secrets at rest (the key that encrypts signing keys). */
  keyEncryptionKey: Buffer;
}

/**
 * Two-step sign-in, for developers and school staff alike (docs/security.md → Developer credentials, School
 * staff credentials): an RFC 6238 secret (totp.ts), sealed under the key-encryption key and bound to its
 * person, and ten single-use recovery codes kept as SHA-256 hashes (recovery-codes.ts). A TOTP code is
 * accepted once, a recovery code spent once, each atomically in the store (SecondFactorRecords). What an area
 * records of it (a developer's history, a school's audit trail) is the area's.
 */
export class SecondFactors {
  constructor(private readonly deps: SecondFactorDeps) {}

  /**
   * Turns the factor on with `secret`, once `code` shows the person's app has it (the step it matched is then
   * used up). The new recovery codes (shown once), or undefined when the code does not match.
   */
  async enable(records: SecondFactorRecords, secret: string, code: string): Promise<string[] | undefined> {
    const step = matchTotp(secret, code, this.deps.clock.now());
    if (step === undefined) return undefined;
    const recoveryCodes = newRecoveryCodes();
    const sealed = encryptPrivateKey(this.deps.keyEncryptionKey, records.aad, secret);
    const on = await records.turnOn({ totpSecret: sealed, recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode) }, step);
    return on ? recoveryCodes : undefined;
  }

  /** Turns the factor off (the caller has checked who asks, and that they may). false when it was off. */
  disable(records: SecondFactorRecords): Promise<boolean> {
    return records.turnOff();
  }

  /** Ten new recovery codes (shown once); the old ones stop working. Undefined when the factor is off. */
  async replaceRecoveryCodes(records: SecondFactorRecords): Promise<string[] | undefined> {
    const recoveryCodes = newRecoveryCodes();
    return (await records.replaceRecoveryCodes(recoveryCodes.map(hashRecoveryCode))) ? recoveryCodes : undefined;
  }

  /**
   * The second step of a sign-in: a current TOTP code never accepted before, or an unused recovery code (then
   * spent). How it was made, or undefined when it is neither.
   */
  async verify(records: SecondFactorRecords, typed: string): Promise<SecondStepMade | undefined> {
    const factor = await records.read();
    if (!factor) return undefined;
    if (looksLikeTotpCode(typed)) return (await this.#totpMatches(records, factor, typed)) ? { how: 'totp' } : undefined;
    if (!looksLikeRecoveryCode(typed)) return undefined;
    const remaining = await records.spendRecoveryCode(hashRecoveryCode(typed));
    return remaining === undefined ? undefined : { how: 'recovery_code', remaining };
  }

  /** Whether `code` is a current TOTP code, never accepted before (never a recovery code): what asking again takes. */
  async totpCodeMatches(records: SecondFactorRecords, code: string): Promise<boolean> {
    const factor = await records.read();
    return factor !== undefined && looksLikeTotpCode(code) && this.#totpMatches(records, factor, code);
  }

  async #totpMatches(records: SecondFactorRecords, factor: SealedSecondFactor, code: string): Promise<boolean> {
    const step = matchTotp(this.#unseal(records, factor), code, this.deps.clock.now());
    return step !== undefined && records.acceptStep(step);
  }

  #unseal(records: SecondFactorRecords, factor: SealedSecondFactor): string {
    return decryptPrivateKey(this.deps.keyEncryptionKey, records.aad, factor.totpSecret);
  }
}
