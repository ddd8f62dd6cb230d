import type { StoredClientSecret } from '../../adapters/store.js';
import { generateClientSecret, hashClientSecret } from '../clients/client-secret.js';
import type { Actor } from './actor.js';
import { withAppLock } from './app-change.js';
import type { AppRecorder } from './app-history.js';
import { newSecretId } from './app-ids.js';
import { APP_LIMITS, checkExpiry, checkSecretLabel } from './app-input.js';
import type { AppSummary, CreatedSecret } from './app-summary.js';
import type { DeveloperDeps } from './deps.js';
import { ConflictError, NotFoundError } from './errors.js';

/**
 * An app's client secrets (SPEC: many client secrets): 256 bits each, kept only as a hash, with a label, a hint
 * (its last characters) and an optional expiry; recorded by label and hint, never by value.
 */
export class AppSecrets {
  constructor(
    private readonly deps: Pick<DeveloperDeps, 'store' | 'clock'>,
    private readonly recorder: AppRecorder,
    private readonly getApp: (actor: Actor, clientId: string) => Promise<AppSummary>,
  ) {}

  /** A 256-bit secret with a label and an optional expiry (ISO 8601 instant in the future). */
  async create(actor: Actor, clientId: string, input: { label: string; expiresAt?: string | undefined }): Promise<CreatedSecret> {
    const { store, clock } = this.deps;
    const label = checkSecretLabel(input.label);
    const now = clock.now();
    const expiresAt = checkExpiry(input.expiresAt, now);
    return withAppLock(store, clientId, async () => {
      await this.getApp(actor, clientId);
      if ((await store.listClientSecrets(clientId)).length >= APP_LIMITS.secrets) {
        throw new ConflictError(`An app can have at most ${APP_LIMITS.secrets} secrets: revoke one you no longer use first.`);
      }
      const secret = generateClientSecret();
      const record: StoredClientSecret = {
        id: newSecretId(), clientId, hash: hashClientSecret(secret), label, hint: secret.slice(-4), createdAt: now.toISOString(), expiresAt,
      };
      await store.putClientSecret(record);
      // Label and hint only: the history and the logs never hold a secret.
      await this.recorder.change(actor, clientId, 'secret.created',
        { secret_id: record.id, label, hint: record.hint!, ...(expiresAt ? { expires_at: expiresAt } : {}) },
        'app.secret_created', 'client secret created', { secretId: record.id, expiresAt });
      return { secret, record };
    });
  }

  /** Removes the secret from the store: every instance reads secrets from there, so it stops working at once. */
  async revoke(actor: Actor, clientId: string, secretId: string): Promise<void> {
    const { store } = this.deps;
    await this.getApp(actor, clientId);
    const secret = (await store.listClientSecrets(clientId)).find((s) => s.id === secretId);
    if (!secret || !(await store.deleteClientSecret(clientId, secretId))) throw new NotFoundError('This secret does not exist (it may have been revoked already).');
    await this.recorder.change(actor, clientId, 'secret.revoked', { secret_id: secret.id, label: secret.label, hint: secret.hint ?? '' },
      'app.secret_revoked', 'client secret revoked', { secretId });
  }
}
