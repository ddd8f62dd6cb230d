import { randomBytes } from 'node:crypto';
import type { Store } from '../../adapters/store.js';
import { hashClientSecret } from '../../src/clients/client-secret.js';

/**
 * Staff API tokens for /school/api in tests, put straight into the store as the console's account page makes
 * them (`lys_<id>_<secret>`, kept as a hash). Returns the token to send.
 */
export async function putStaffToken(store: Store, userId: string, o: { expiresAt?: string; createdAt?: string } = {}): Promise<{ id: string; token: string }> {
  const id = randomBytes(8).toString('hex');
  const token = `lys_${id}_${randomBytes(32).toString('base64url')}`;
  const now = new Date();
  await store.putStaffApiToken({
    id, userId, hash: hashClientSecret(token), label: 'test', hint: token.slice(-4),
    createdAt: o.createdAt ?? now.toISOString(), expiresAt: o.expiresAt ?? new Date(now.getTime() + 30 * 86_400_000).toISOString(),
  });
  return { id, token };
}

/** A school admin's second factor as stored (the API refuses an admin's token without one). */
export async function putSecondFactor(store: Store, userId: string): Promise<void> {
  await store.putStaffSecondFactor({ userId, totpSecret: 'not-used-by-these-tests', recoveryCodeHashes: [], enabledAt: new Date().toISOString() });
}
