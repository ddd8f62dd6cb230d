import type { Store } from '../../../adapters/store.js';
import { newTotpSecret } from '../../accounts/totp.js';
import { decryptPrivateKey, encryptPrivateKey } from '../../keys/key-crypto.js';

/**
 * A second factor being set up: the new secret waits here (a `<Area>TotpSetup` record of the session, encrypted
 * under the key-encryption key, 10 minutes) between the page that shows it and the code that proves the
 * person's app has it. Only then is it stored on the account. It names the account, so ending the account's
 * sessions ends it too.
 */
const SECONDS = 10 * 60;

export class TotpSetups {
  readonly #model: string;

  constructor(private readonly deps: { store: Pick<Store, 'oidc'>; keyEncryptionKey: Buffer }, area: string) {
    this.#model = `${area[0]!.toUpperCase()}${area.slice(1)}TotpSetup`;
  }

  /** A new secret for this session's set-up (replacing any earlier one). */
  async begin(sessionKey: string, accountId: string): Promise<string> {
    const secret = newTotpSecret();
    const sealed = encryptPrivateKey(this.deps.keyEncryptionKey, aad(accountId, sessionKey), secret);
    await this.deps.store.oidc.upsert(this.#model, sessionKey, { accountId, secret: sealed }, SECONDS);
    return secret;
  }

  /** The secret being set up in this session, or undefined (none, or it took too long). */
  async current(sessionKey: string, accountId: string): Promise<string | undefined> {
    const record = await this.deps.store.oidc.find(this.#model, sessionKey);
    if (!record || record.accountId !== accountId || typeof record.secret !== 'string') return undefined;
    return decryptPrivateKey(this.deps.keyEncryptionKey, aad(accountId, sessionKey), record.secret);
  }

  end(sessionKey: string): Promise<void> {
    return this.deps.store.oidc.destroy(this.#model, sessionKey);
  }
}

const aad = (accountId: string, sessionKey: string) => `totp-setup:${accountId}:${sessionKey}`;
