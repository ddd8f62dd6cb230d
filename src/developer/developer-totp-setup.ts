import { decryptPrivateKey, encryptPrivateKey } from '../keys/key-crypto.js';
import type { DeveloperDeps } from './deps.js';
import { newTotpSecret } from './totp.js';

/**
 * A second factor being set up: the new secret waits here (a `DeveloperTotpSetup` record of the session,
 * encrypted under the key-encryption key, 10 minutes) between the page that shows it and the code that proves
 * the developer's app has it. Only then is it stored on the account. It names the account, so ending the
 * account's sessions ends it too.
 */
const MODEL = 'DeveloperTotpSetup';
const SECONDS = 10 * 60;

export class TotpSetups {
  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'keyEncryptionKey'>) {}

  /** A new secret for this session's set-up (replacing any earlier one). */
  async begin(sessionKey: string, developerId: string): Promise<string> {
    const secret = newTotpSecret();
    const sealed = encryptPrivateKey(this.deps.keyEncryptionKey, aad(developerId, sessionKey), secret);
    await this.deps.store.oidc.upsert(MODEL, sessionKey, { accountId: developerId, secret: sealed }, SECONDS);
    return secret;
  }

  /** The secret being set up in this session, or undefined (none, or it took too long). */
  async current(sessionKey: string, developerId: string): Promise<string | undefined> {
    const record = await this.deps.store.oidc.find(MODEL, sessionKey);
    if (!record || record.accountId !== developerId || typeof record.secret !== 'string') return undefined;
    return decryptPrivateKey(this.deps.keyEncryptionKey, aad(developerId, sessionKey), record.secret);
  }

  end(sessionKey: string): Promise<void> {
    return this.deps.store.oidc.destroy(MODEL, sessionKey);
  }
}

const aad = (developerId: string, sessionKey: string) => `totp-setup:${developerId}:${sessionKey}`;
