/**
 * oidc-provider's own in-memory adapter and its LRU, which the package does not export by name (it has no
 * "exports" map, so the files can be imported directly). bench/bare-provider.ts uses them unchanged, only
 * with room for everything the bench creates.
 */
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  import type { Adapter } from 'oidc-provider';
  export default class MemoryAdapter implements Adapter {
    constructor(model: string, store?: unknown, clockTolerance?: number);
    upsert: Adapter['upsert'];
    find: Adapter['find'];
    findByUserCode: Adapter['findByUserCode'];
    findByUid: Adapter['findByUid'];
    consume: Adapter['consume'];
    destroy: Adapter['destroy'];
    revokeByGrantId: Adapter['revokeByGrantId'];
  }
}

declare module 'oidc-provider/lib/helpers/lru.js' {
  export default class LRU {
    constructor(options: { maxSize: number });
  }
}
