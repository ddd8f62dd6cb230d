import type { DeveloperAccount } from '../../adapters/store.js';
import type { DeveloperAccounts } from './developer-accounts.js';
import type { GuardedAttempt } from './guarded-attempt.js';

/**
 * How a signed-in developer confirms it is them again before Lanyard makes a credential that acts as them (an
 * API token: docs/developer-area.md → Getting an account): a fresh code from their authenticator app when
 * two-step sign-in is on (never a recovery code), else their current password. One rule for the page and the
 * JSON API; each names the field its own way.
 */
export interface Reconfirmation {
  /** `code` with two-step sign-in on, else `password`. */
  factor: 'code' | 'password';
  /** The guarded check of what was typed (src/developer/guarded-attempt.ts), for the sign-in's guessing protection. */
  attempt(typed: string): GuardedAttempt<true>;
}

/** What confirms it is them: `code` with two-step sign-in on, else `password`. */
export const reconfirmationFactor = (account: Pick<DeveloperAccount, 'totpSecret'>): Reconfirmation['factor'] =>
  (account.totpSecret ? 'code' : 'password');

export function reconfirmation(accounts: DeveloperAccounts, account: DeveloperAccount): Reconfirmation {
  const code = reconfirmationFactor(account) === 'code';
  return {
    factor: code ? 'code' : 'password',
    attempt: (typed) => ({
      scope: code ? 'secondFactor' : 'password',
      email: account.email,
      verify: async () => (code ? await accounts.totpCodeMatches(account, typed.trim()) : await accounts.passwordMatches(account, typed)) || undefined,
      final: () => true,
    }),
  };
}
