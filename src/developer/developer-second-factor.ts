import type { DeveloperAccount, Store } from '../../adapters/store.js';
import type { SecondFactorRecords } from '../accounts/second-factor.js';
import { TOTP_PERIOD_SECONDS, TOTP_WINDOW } from '../accounts/totp.js';
import { sameHash } from '../clients/client-secret.js';

/** How DeveloperAccounts writes an account: to the record as stored now, under its lock; or ending its sessions too. */
export interface AccountWrites {
  patch(change: (stored: DeveloperAccount) => Partial<DeveloperAccount>): Promise<DeveloperAccount>;
  /** Stores the change with every session and API token of the account ended, in one write (then the rest). */
  endingSessions(change: Partial<DeveloperAccount>): Promise<DeveloperAccount>;
}

/**
 * A developer account's second factor as the shared service works on it (src/accounts/second-factor.ts): its
 * fields on the account as the caller read it (`totpSecret`, `recoveryCodeHashes`); a change is written to
 * the account as stored now, and `latest()` is the account after it. Turning it on or off ends every session
 * and API token (docs/developer-area.md → Getting an account). A TOTP step used is a counter in the store, so
 * two instances cannot both accept one code, nor one older than a code already used (RFC 6238 §5.2); a
 * recovery code is spent once, even when two sign-ins present it at once: the first hit on its counter wins.
 */
export function developerSecondFactor(
  store: Pick<Store, 'peekCounter' | 'hitCounter'>, account: DeveloperAccount, writes: AccountWrites,
): { records: SecondFactorRecords; latest: () => DeveloperAccount } {
  let latest = account;
  const id = account.id;
  const stepKey = (s: number) => `developer-totp:${id}:${s}`;
  const acceptStep = async (step: number) => {
    for (let later = step + 1; later <= step + 2 * TOTP_WINDOW; later += 1) {
      if (await store.peekCounter(stepKey(later))) return false;
    }
    return (await store.hitCounter(stepKey(step), (2 * TOTP_WINDOW + 2) * TOTP_PERIOD_SECONDS)).count === 1;
  };
  const records: SecondFactorRecords = {
    aad: totpAad(id),
    read: async () => (account.totpSecret ? { totpSecret: account.totpSecret, recoveryCodeHashes: account.recoveryCodeHashes ?? [] } : undefined),
    acceptStep,
    turnOn: async (factor, step) => {
      if (!(await acceptStep(step))) return false;
      latest = await writes.endingSessions(factor);
      return true;
    },
    turnOff: async () => {
      latest = await writes.endingSessions({ totpSecret: undefined, recoveryCodeHashes: undefined });
      return account.totpSecret !== undefined;
    },
    replaceRecoveryCodes: async (hashes) => {
      let on = false;
      latest = await writes.patch((stored) => {
        on = stored.totpSecret !== undefined;
        return on ? { recoveryCodeHashes: hashes } : {};
      });
      return on;
    },
    spendRecoveryCode: async (hash) => {
      const found = (account.recoveryCodeHashes ?? []).find((h) => sameHash(h, hash));
      if (!found) return undefined;
      if ((await store.hitCounter(`developer-recovery:${id}:${found}`, 400 * 24 * 60 * 60)).count !== 1) return undefined;
      // Removed from the list as it is now (new codes made meanwhile stay; the old list is never written back),
      // and only if it is still in it: a code of a list replaced meanwhile is no code.
      let current = false;
      latest = await writes.patch((now) => {
        current = (now.recoveryCodeHashes ?? []).includes(found);
        return { recoveryCodeHashes: (now.recoveryCodeHashes ?? []).filter((h) => h !== found) };
      });
      return current ? (latest.recoveryCodeHashes ?? []).length : undefined;
    },
  };
  return { records, latest: () => latest };
}

/** Binds an encrypted TOTP secret to its account: a sealed secret copied to another account does not decrypt. */
const totpAad = (developerId: string) => `totp:${developerId}`;
