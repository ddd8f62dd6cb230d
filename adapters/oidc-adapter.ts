import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import { LanyardError } from '../src/errors.js';
import type { OidcRecords } from './store.js';

/** Where oidc-provider's `Client` model finds clients: the store, through the client registry. */
export type ClientLookup = (clientId: string) => Promise<AdapterPayload | undefined>;

/**
 * oidc-provider's adapter interface, backed by any Store's OidcRecords (and the client registry for the
 * `Client` model). One instance per model. A store failure arrives as StoreUnavailableError, which
 * oidc-provider answers `temporarily_unavailable` with 503 (src/errors.ts).
 */
export function oidcAdapterFactory(records: OidcRecords, clients?: ClientLookup): new (model: string) => Adapter {
  return class StoreAdapter implements Adapter {
    constructor(private readonly model: string) {}
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      if (this.model === 'Client') throw new LanyardError('not_supported', 'clients are registered through Lanyard, not the provider');
      await records.upsert(this.model, id, payload as Record<string, unknown>, expiresIn);
    }
    async find(id: string) {
      if (this.model === 'Client') return clients?.(id);
      return (await records.find(this.model, id)) as AdapterPayload | undefined;
    }
    async findByUid(uid: string) { return (await records.findByUid(this.model, uid)) as AdapterPayload | undefined; }
    async findByUserCode(code: string) {
      return (await records.findByUserCode(this.model, code)) as AdapterPayload | undefined;
    }
    /**
     * oidc-provider reads `consumed` on find and calls consume() later, so two requests presenting the same
     * code (or refresh token) at the same moment would both pass its check. The store's consume is a
     * compare-and-set: the loser gets invalid_grant and the grant is revoked, exactly as for a later replay
     * (RFC 6749 §4.1.2: a code used more than once — the tokens it issued are revoked).
     */
    async consume(id: string) {
      if (await records.consume(this.model, id)) return;
      const payload = await records.find(this.model, id);
      if (payload?.grantId) {
        await records.revokeByGrantId(payload.grantId);
        await records.destroy('Grant', payload.grantId);
      }
      throw new errors.InvalidGrant(`${this.model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already consumed`);
    }
    async destroy(id: string) { await records.destroy(this.model, id); }
    async revokeByGrantId(grantId: string) { await records.revokeByGrantId(grantId); }
  };
}
