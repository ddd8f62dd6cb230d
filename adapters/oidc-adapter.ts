import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import { isStoreUnavailable, StoreUnavailableError } from '../src/errors.js';
import type { OidcRecords } from './store.js';

/** Where oidc-provider's `Client` model finds clients: the store, through the client registry. */
export type ClientLookup = (clientId: string) => Promise<AdapterPayload | undefined>;

/**
 * A store failure inside oidc-provider: its error handler answers `temporarily_unavailable` with 503 (RFC
 * 6749 §4.1.2.1 names the code), on a redirect to the client where one is allowed, never a 500.
 */
export class TemporarilyUnavailable extends errors.OIDCProviderError {
  constructor(cause: unknown) {
    super(503, 'temporarily_unavailable', { cause: cause as Error });
    this.error_description = 'the service is temporarily unavailable; try again in a moment';
    this.expose = true; // a 5xx OIDCProviderError is otherwise reported as server_error
  }
}

const translate = (err: unknown) => (isStoreUnavailable(err) ? new TemporarilyUnavailable(err) : err);

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw translate(err);
  }
}

/** oidc-provider's adapter interface, backed by any Store's OidcRecords. One instance per model. */
export function oidcAdapterFactory(records: OidcRecords, clients?: ClientLookup): new (model: string) => Adapter {
  return class StoreAdapter implements Adapter {
    constructor(private readonly model: string) {}
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      if (this.model === 'Client') throw new StoreUnavailableError(new Error('clients are registered through Lanyard, not the provider'));
      await guarded(() => records.upsert(this.model, id, payload as Record<string, unknown>, expiresIn));
    }
    async find(id: string) {
      if (this.model === 'Client') return guarded(async () => clients?.(id));
      return guarded(async () => (await records.find(this.model, id)) as AdapterPayload | undefined);
    }
    async findByUid(uid: string) { return guarded(async () => (await records.findByUid(this.model, uid)) as AdapterPayload | undefined); }
    async findByUserCode(code: string) {
      return guarded(async () => (await records.findByUserCode(this.model, code)) as AdapterPayload | undefined);
    }
    /**
     * oidc-provider reads `consumed` on find and calls consume() later, so two requests presenting the same
     * code (or refresh token) at the same moment would both pass its check. The store's consume is a
     * compare-and-set: the loser gets invalid_grant and the grant is revoked, exactly as for a later replay
     * (RFC 6749 §4.1.2: a code used more than once — the tokens it issued are revoked).
     */
    async consume(id: string) {
      await guarded(async () => {
        if (await records.consume(this.model, id)) return;
        const payload = await records.find(this.model, id);
        if (payload?.grantId) {
          await records.revokeByGrantId(payload.grantId);
          await records.destroy('Grant', payload.grantId);
        }
        throw new errors.InvalidGrant(`${this.model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already consumed`);
      });
    }
    async destroy(id: string) { await guarded(() => records.destroy(this.model, id)); }
    async revokeByGrantId(grantId: string) { await guarded(() => records.revokeByGrantId(grantId)); }
  };
}
