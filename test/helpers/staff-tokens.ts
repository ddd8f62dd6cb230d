import type { Store } from '../../adapters/store.js';
import { newPersonalToken } from '../../src/accounts/personal-tokens.js';
import { STAFF_TOKEN_PREFIX } from '../../src/school/staff-api-tokens.js';

/**
 * Staff API tokens for /school/api in tests, put straight into the store in the shape the account page makes
 * them (src/school/staff-api-tokens.ts: `lys_<id>_<secret>`, kept as a hash), with any expiry, made now (or at
 * `now`, a test clock's time). Returns the token to send and its id.
 */
export async function putStaffToken(store: Store, userId: string, o: { expiresAt?: string; now?: Date } = {}): Promise<{ id: string; token: string }> {
  const { id, token, hash, hint } = newPersonalToken(STAFF_TOKEN_PREFIX);
  const now = o.now ?? new Date(); // made now, on the test's clock when given
  await store.putStaffApiToken({
    id, userId, hash, label: 'test', hint, createdAt: now.toISOString(), expiresAt: o.expiresAt ?? new Date(now.getTime() + 30 * 86_400_000).toISOString(),
  });
  return { id, token };
}

/** A school admin's second factor as stored (the API refuses an admin's token without one); never used to sign in. */
export async function putSecondFactor(store: Store, userId: string): Promise<void> {
  await store.putStaffSecondFactor({ userId, totpSecret: 'not-used-by-these-tests', recoveryCodeHashes: [], enabledAt: new Date().toISOString() });
}
