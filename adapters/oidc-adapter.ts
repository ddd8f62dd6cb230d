import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import { LanyardError } from '../src/errors.js';
import { foundPayload, storedId, storedPayload } from './record-ids.js';
import type { OidcRecords } from './store.js';

/** Where oidc-provider's `Client` model finds clients: the store, through the client registry. */
export type ClientLookup = (clientId: string) => Promise<AdapterPayload | undefined>;

/**
 * oidc-provider's adapter interface, backed by any Store's OidcRecords (and the client registry for the
 * `Client` model). One instance per model. A store failure arrives as StoreUnavailableError, which
 * oidc-provider answers `temporarily_unavailable` with 503 (src/errors.ts). Tokens, codes and sessions are
 * stored by the SHA-256 of their value, never the value (record-ids.ts); a record an older instance stored
 * by its value (during an upgrade) is still found.
 */
export function oidcAdapterFactory(records: OidcRecords, clients?: ClientLookup): new (model: string) => Adapter {
  return class StoreAdapter implements Adapter {
    constructor(private readonly model: string) {}
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      if (this.model === 'Client') throw new LanyardError('not_supported', 'clients are registered through Lanyard, not the provider');
      await records.upsert(this.model, storedId(this.model, id), storedPayload(this.model, payload as Record<string, unknown>), expiresIn);
    }
    async find(id: string) {
      if (this.model === 'Client') return clients?.(id);
      return foundPayload(this.model, id, await this.#find(id)) as AdapterPayload | undefined;
    }
    /** By its hash, or (stored by an instance of an earlier version while this one started) by the value itself. */
    async #find(id: string) {
      const key = storedId(this.model, id);
      return (await records.find(this.model, key)) ?? (key === id ? undefined : records.find(this.model, id));
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
      const key = storedId(this.model, id);
      if (await records.consume(this.model, key) || (key !== id && await records.consume(this.model, id))) return;
      const payload = await this.#find(id);
      if (payload?.grantId) {
        await records.revokeByGrantId(payload.grantId);
        await records.destroy('Grant', payload.grantId);
      }
      throw new errors.InvalidGrant(`${this.model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already consumed`);
    }
    async destroy(id: string) {
      const key = storedId(this.model, id);
      await Promise.all([records.destroy(this.model, key), key === id ? undefined : records.destroy(this.model, id)]);
    }
    async revokeByGrantId(grantId: string) { await records.revokeByGrantId(grantId); }
  };
}
