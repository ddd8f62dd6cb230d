import type { Test } from 'tap';
import type { StoredClient, StoredLogo } from '../../adapters/store.js';
import { type Fresh, START } from './harness.js';

const client = (id: string): StoredClient => ({
  clientId: id, name: `App ${id}`, redirectUris: [`https://${id}.example/cb`], defaultScopes: ['openid'], responseTypes: ['code'],
  source: 'developer', status: 'live', createdAt: START.toISOString(), updatedAt: START.toISOString(),
});

/** A logo whose bytes hold every byte value (a binary round trip, not text). */
export const sampleLogo = (clientId: string, hash: string, over: Partial<StoredLogo> = {}): StoredLogo => ({
  clientId, hash, contentType: 'image/png', bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]),
  sourceUrl: `https://${clientId}.example/logo.png`, fetchedAt: START.toISOString(), ...over,
});

/** Logos: the bytes Lanyard fetched for an app, kept by client and hash, gone with the client. */
export function logosContract(t: Test, fresh: Fresh): void {
  t.test('logos: put and find round-trip the bytes; only the client\'s own hash is found', async (t) => {
    const { store } = await fresh(t);
    await store.putClient(client('a'));
    await store.putClient({ ...client('b'), logoHash: 'h1', logoUrl: 'https://b.example/logo.png' });
    t.equal((await store.findClient('b'))?.logoHash, 'h1', 'the client names its logo');
    t.equal((await store.findClient('a'))?.logoHash, undefined, 'absent: undefined');
    const logo = sampleLogo('b', 'h1');
    await store.putClientLogo(logo);
    const found = await store.findClientLogo('b', 'h1');
    t.same(found, logo, 'every field');
    t.ok(found && Buffer.isBuffer(found.bytes) && found.bytes.equals(logo.bytes), 'the same bytes, as a Buffer');
    t.equal(await store.findClientLogo('a', 'h1'), undefined, 'another client\'s hash is not found');
    t.equal(await store.findClientLogo('b', 'nope'), undefined, 'unknown hash');
    await t.rejects(store.putClientLogo(sampleLogo('ghost', 'h1')), { code: 'not_found' }, 'no logo for a client that does not exist');
  });

  t.test('logos: prune keeps only the one named; deleting the client deletes its logos', async (t) => {
    const { store } = await fresh(t);
    await store.putClient(client('b'));
    await store.putClientLogo(sampleLogo('b', 'h1'));
    await store.putClientLogo(sampleLogo('b', 'h2', { contentType: 'image/gif' }));
    t.equal(await store.pruneClientLogos('b', 'h2'), 1, 'one pruned');
    t.equal(await store.findClientLogo('b', 'h1'), undefined, 'the old one is gone');
    t.equal((await store.findClientLogo('b', 'h2'))?.contentType, 'image/gif', 'the kept one stays');
    t.equal(await store.pruneClientLogos('b'), 1, 'without a hash to keep, all go');
    t.equal(await store.findClientLogo('b', 'h2'), undefined, 'none left');
    await store.putClientLogo(sampleLogo('b', 'h3'));
    t.equal(await store.deleteClient('b'), true, 'client deleted');
    await store.putClient(client('b'));
    t.equal(await store.findClientLogo('b', 'h3'), undefined, 'a client made again under the same id finds no old logo');
  });
}
