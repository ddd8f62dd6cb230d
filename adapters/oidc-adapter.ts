import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { OidcRecords } from './store.js';

/** oidc-provider's adapter interface, backed by any Store's OidcRecords. One instance per model. */
export function oidcAdapterFactory(records: OidcRecords): new (model: string) => Adapter {
  return class StoreAdapter implements Adapter {
    constructor(private readonly model: string) {}
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      await records.upsert(this.model, id, payload as Record<string, unknown>, expiresIn);
    }
    async find(id: string) { return (await records.find(this.model, id)) as AdapterPayload | undefined; }
    async findByUid(uid: string) { return (await records.findByUid(this.model, uid)) as AdapterPayload | undefined; }
    async findByUserCode(code: string) {
      return (await records.findByUserCode(this.model, code)) as AdapterPayload | undefined;
    }
    async consume(id: string) { await records.consume(this.model, id); }
    async destroy(id: string) { await records.destroy(this.model, id); }
    async revokeByGrantId(grantId: string) { await records.revokeByGrantId(grantId); }
  };
}
