import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import t from 'tap';
import { openRedisStore, type RedisPersistence } from '../../adapters/redis.js';
import { parseRedisUrl } from '../../src/config/store-url.js';
import { ManualClock } from '../../src/clock.js';
import { storeContract } from '../contract/store-contract.js';
import { freePort, startRedis, startSentinelSet } from '../helpers/redis-server.js';

/** The shared storage contract against one real redis-server; each store gets a prefix of its own. */
const server = await startRedis(t, { aof: false });
const target = parseRedisUrl(server.url);
const admin = new Redis({ host: server.host, port: server.port, lazyConnect: true, maxRetriesPerRequest: 1 });
admin.on('error', () => {});
await admin.connect();
t.teardown(() => admin.disconnect());

async function deletePrefix(prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await admin.unlink(...keys);
  } while (cursor !== '0');
}

/** Tries `attempt` until it resolves: bounded, for what takes Redis or Sentinel a moment. */
async function eventually<T>(attempt: () => Promise<T>, tries = 100, pauseMs = 200): Promise<T> {
  for (let i = 1; ; i += 1) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= tries) throw err;
      await sleep(pauseMs);
    }
  }
}

let stores = 0;
storeContract(t, 'redis', async (clock) => {
  const prefix = `t${(stores += 1)}`;
  return {
    store: await openRedisStore(target, clock, prefix),
    reopen: (c) => openRedisStore(target, c, prefix),
    cleanup: () => deletePrefix(prefix),
  };
});

t.test('redis: every key is under the prefix, and what has a lifetime also expires in Redis', async (t) => {
  const clock = new ManualClock(new Date('2027-01-15T12:00:00.000Z'));
  const store = await openRedisStore(target, clock, 'layout');
  t.teardown(async () => { await store.close(); await deletePrefix('layout'); });
  const org = await store.upsertOrganisation({ slug: 'north', name: 'North' });
  const pupil = await store.upsertUser({ organisationId: org.id, username: 'u', givenName: 'U', familyName: 'V', type: 'student' });
  await store.putHelpCode({
    userId: pupil.id, organisationId: org.id, codeHash: 'h', createdAt: clock.now().toISOString(), issuedBy: 't', failures: 0,
    expiresAt: new Date(clock.now().getTime() + 3600_000).toISOString(),
  });
  await store.oidc.upsert('Session', 's', { uid: 'x', grantId: 'g' }, 60);
  await store.hitCounter('c', 30);
  await store.tryLock('l', 5000);
  await store.ping();
  const keys: string[] = [];
  for await (const batch of admin.scanStream({ match: '*', count: 500 })) keys.push(...(batch as string[]));
  const ours = keys.filter((k) => k.startsWith('layout:'));
  t.ok(ours.length >= 8, 'keys written');
  t.same(keys.filter((k) => /^layout[^:]/.test(k)), [], 'nothing outside "layout:"');
  const ttl = (key: string) => admin.pttl(`layout:${key}`);
  t.ok((await ttl('{oidc:Session}:rec:s')) > 55_000, 'record: native expiry');
  t.ok((await ttl('{oidc:Session}:rec:s')) <= 60_000, 'record: no longer than its lifetime');
  t.ok((await ttl('{grant:g}')) > 55_000, 'grant index: native expiry');
  t.ok((await ttl('counter:c')) > 25_000 && (await ttl('counter:c')) <= 30_000, 'counter: native expiry');
  t.ok((await ttl('lock:l')) > 0 && (await ttl('lock:l')) <= 5000, 'lock: native expiry');
  t.ok((await ttl(`{directory}:help-code:${pupil.id}`)) > 3_590_000 && (await ttl(`{directory}:help-code:${pupil.id}`)) <= 3_600_000, 'help code: native expiry');
  t.equal(await ttl('{directory}:users'), -1, 'directory data does not expire');
});

t.test('redis: opening fails within ~5 s with a clear error when Redis cannot be reached', async (t) => {
  const port = await freePort();
  const started = Date.now();
  await t.rejects(openRedisStore(parseRedisUrl(`redis://127.0.0.1:${port}`), new ManualClock(), 'nowhere'),
    { code: 'store_unreachable', message: new RegExp(`cannot reach Redis at redis://127\\.0\\.0\\.1:${port}`) });
  t.ok(Date.now() - started < 7000, 'gave up in time');
});

t.test('redis: ping fails while the server is down and answers again once it is back, without reopening', async (t) => {
  const own = await startRedis(t, { aof: true });
  let persistence: RedisPersistence | undefined;
  const store = await openRedisStore(parseRedisUrl(own.url), new ManualClock(), 'ping', (p) => { persistence = p; });
  t.teardown(() => store.close());
  t.match(persistence, { aof: true, rdb: false, appendfsync: 'always' }, 'persistence reported on connect');
  await store.putSetting('kept', 'yes');
  await t.resolves(store.ping(), 'up');
  await own.stop();
  await t.rejects(store.ping(), 'down: not ready');
  await t.rejects(store.getSetting('kept'), 'down: a command fails at once');
  await own.start();
  await t.resolves(eventually(() => store.ping()), 'back: ready again');
  t.equal(await store.getSetting('kept'), 'yes', 'data kept (AOF)');
});

t.test('redis: onConnect reports a server without persistence', async (t) => {
  let persistence: RedisPersistence | undefined;
  const store = await openRedisStore(target, new ManualClock(), 'persistence', (p) => { persistence = p; });
  t.teardown(() => store.close());
  t.match(persistence, { aof: false, rdb: false, summary: /no persistence/ });
});

t.test('redis: Sentinel mode reads and writes, and keeps working after a failover', async (t) => {
  const set = await startSentinelSet(t);
  const store = await openRedisStore(parseRedisUrl(set.url), new ManualClock(), 'sentinel');
  t.teardown(() => store.close());
  await store.putSetting('before', 'one');
  t.equal(await store.getSetting('before'), 'one', 'write then read through the primary');
  // Replication is asynchronous: make sure the replica has the write before the primary dies.
  const primary = new Redis({ host: set.primary.host, port: set.primary.port, lazyConnect: true });
  primary.on('error', () => {});
  await primary.connect();
  t.equal(await primary.wait(1, 5000), 1, 'replicated');
  primary.disconnect();

  await set.failover();
  await t.resolves(eventually(() => store.putSetting('after', 'two')), 'writes again on the new primary');
  t.equal(await store.getSetting('after'), 'two', 'and reads');
  t.equal(await store.getSetting('before'), 'one', 'what was replicated is still there');
  t.equal(await store.getOrCreateSetting('after', () => 'x'), 'two', 'scripts run on the new primary');
});

t.test('redis: text edited inside Lua scripts (cjson) comes back unchanged', async (t) => {
  const clock = new ManualClock();
  const store = await openRedisStore(target, clock, 'text');
  t.teardown(async () => { await store.close(); await deletePrefix('text'); });
  const odd = 'École «Sainte-Anne» / 北 🎒 "q" \\ \n\t é';
  const org = await store.upsertOrganisation({ slug: 'ecole', name: odd });
  t.equal((await store.upsertOrganisation({ slug: 'ECOLE', name: odd })).id, org.id, 'slug in another case: same organisation');
  t.same(await store.findOrganisation('ecole'), { ...org, name: odd }, 'organisation name');
  const user = await store.upsertUser({ organisationId: org.id, username: 'zoë', givenName: odd, familyName: '🎒', type: 'student', email: 'a/b@c' });
  t.same(await store.findUser(user.id), user, 'user fields');
  await store.putClient({
    clientId: 'app', name: odd, redirectUris: [], defaultScopes: [], responseTypes: ['code'], source: 'config', status: 'live',
    createdAt: 'c', updatedAt: 'u',
  });
  t.same((await store.findClient('app'))?.redirectUris, [], 'an empty list stays a list');
  await store.putClientSecret({ id: 's', clientId: 'app', hash: 'h', label: odd, hint: '…/+', createdAt: 'c' });
  await store.touchClientSecret('app', 's', '2027-01-01T00:00:00.000Z');
  t.same(await store.listClientSecrets('app'), [{
    id: 's', clientId: 'app', hash: 'h', label: odd, hint: '…/+', createdAt: 'c', lastUsedAt: '2027-01-01T00:00:00.000Z', expiresAt: undefined,
  }], 'secret after touch');
  const pem = '-----BEGIN CERTIFICATE-----\nMIIB/+x==\n-----END CERTIFICATE-----\n';
  const key = { kid: 'k/1', month: '2027-01', notBefore: 'a', notAfter: 'b', certificate: pem, encryptedPrivateKey: 'v1.a/b+c', createdAt: 'c' };
  await store.insertKeyIfAbsent(key);
  await store.replaceKey('k/1', { ...key, kid: 'k2' }, 'r');
  t.same((await store.listKeys())[0], { ...key, revokedAt: 'r' }, 'revoked key');
  await store.oidc.upsert('Session', 'x', { s: odd, list: [], empty: {}, n: 1.0000000000000002, big: 2 ** 53 - 1 }, 60);
  await store.oidc.consume('Session', 'x');
  t.same(await store.oidc.find('Session', 'x'), { s: odd, list: [], empty: {}, n: 1.0000000000000002, big: 2 ** 53 - 1, consumed: Math.floor(clock.now().getTime() / 1000) }, 'consumed payload');
});

t.test('redis: a school, a client or a user is read with one command (a sign-in reads them at every step)', async (t) => {
  const store = await openRedisStore(target, new ManualClock(), 'trips');
  const monitor = await admin.monitor();
  t.teardown(async () => { monitor.disconnect(); await store.close(); await deletePrefix('trips'); });
  const org = await store.upsertOrganisation({ slug: 'north', name: 'North' });
  const user = await store.upsertUser({ organisationId: org.id, username: 'u', givenName: 'U', familyName: 'V', type: 'student' });
  await store.putClient({
    clientId: 'app', name: 'App', redirectUris: [], defaultScopes: [], responseTypes: ['code'], source: 'config', status: 'live',
    createdAt: 'c', updatedAt: 'u',
  });
  // The commands the store's connection sends (not those a script runs inside Redis) for each lookup.
  const seen: string[][] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source !== 'lua' && args.some((a) => a.startsWith('trips:'))) seen.push(args);
  });
  let round = 0;
  const commandsFor = async (lookup: () => Promise<unknown>): Promise<string[]> => {
    t.ok(await lookup(), 'found'); // once first, so that its script is in Redis's cache as it is in service
    const [start, end] = [`trips:start:${(round += 1)}`, `trips:end:${round}`];
    await admin.echo(start);
    await lookup();
    await admin.echo(end); // Redis answers in order, and the monitor sees commands in the order they ran
    await eventually(async () => { if (!seen.some((a) => a[1] === end)) throw new Error('monitor still behind'); }, 50, 20);
    const from = seen.findIndex((a) => a[1] === start);
    const to = seen.findIndex((a) => a[1] === end);
    return seen.slice(from + 1, to).map((a) => a[0]!.toLowerCase());
  };
  t.equal((await commandsFor(() => store.findOrganisation('north'))).length, 1, 'a school by slug');
  t.equal((await commandsFor(() => store.findOrganisation(org.id))).length, 1, 'a school by id');
  t.equal((await commandsFor(() => store.findClient('app'))).length, 1, 'a client');
  t.equal((await commandsFor(() => store.findUser(user.id))).length, 1, 'a user');
});

t.test('redis: sweep prunes index entries of records Redis expired itself, and instances sweep at once', async (t) => {
  const clock = new ManualClock(new Date('2027-01-15T12:00:00.000Z'));
  const store = await openRedisStore(target, clock, 'sweep');
  const other = await openRedisStore(target, clock, 'sweep');
  t.teardown(async () => { await store.close(); await other.close(); await deletePrefix('sweep'); });
  // 20 ms of Redis time, many seconds on the injected clock: Redis removes it first.
  await store.oidc.upsert('Session', 'gone', { uid: 'u-gone', userCode: 'C-GONE' }, 0.02);
  await sleep(60);
  t.equal(await admin.hexists('sweep:{oidc:Session}:uids', 'u-gone'), 1, 'the index entry outlives the record');
  t.equal(await store.sweep(), 0, 'nothing left to count');
  t.equal(await admin.hexists('sweep:{oidc:Session}:uids', 'u-gone'), 0, 'uid entry pruned');
  t.equal(await admin.hexists('sweep:{oidc:Session}:user-codes', 'C-GONE'), 0, 'user code entry pruned');

  for (let i = 0; i < 30; i += 1) await store.oidc.upsert('AccessToken', `at${i}`, { uid: `u${i}`, grantId: 'g' }, 10);
  for (let i = 0; i < 10; i += 1) await store.hitCounter(`c${i}`, 10);
  await store.tryLock('l', 10_000);
  await store.oidc.upsert('AccessToken', 'live', { uid: 'live', grantId: 'g' }, 1000);
  clock.advance(11_000);
  const counts = await Promise.all([store.sweep(), other.sweep(), store.sweep()]);
  t.equal(counts.reduce((a, b) => a + b), 41, 'each expired record, counter and lock counted once in all');
  t.equal(await admin.hlen('sweep:{oidc:AccessToken}:uids'), 1, 'only the live record stays indexed');
  t.same(await admin.smembers('sweep:{grant:g}'), ['["AccessToken","live"]'], 'and in its grant');
  t.same(await store.oidc.findByUid('AccessToken', 'live'), { uid: 'live', grantId: 'g' }, 'the live one is untouched');
  await store.oidc.revokeByGrantId('g');
  t.equal(await store.oidc.find('AccessToken', 'live'), undefined, 'revocation still finds it');
});

t.test('redis: a user edited by the session scripts (cjson) keeps every field; account sets expire and are swept', async (t) => {
  const clock = new ManualClock(new Date('2027-01-15T12:00:00.000Z'));
  const store = await openRedisStore(target, clock, 'accounts');
  t.teardown(async () => { await store.close(); await deletePrefix('accounts'); });
  const odd = 'Zoë «Ø» / 北 🎒 "q" \\ é';
  const org = await store.upsertOrganisation({ slug: 'north', name: 'North' });
  const user = await store.upsertUser({
    organisationId: org.id, username: 'zoë', givenName: odd, familyName: '🎒', type: 'student', email: 'a/b@c', rosterId: '0012',
  });
  await store.setSuspended(user.id, '2027-01-15T12:00:00.000Z');
  await store.endSessions(user.id);
  const edited = (await store.findUser(user.id))!;
  t.same({ ...edited, suspendedAt: undefined, sessionsValidAfter: undefined }, user, 'every field as it was');
  t.ok(Number.isInteger(edited.sessionsValidAfter) && Math.abs(edited.sessionsValidAfter! - Date.now()) < 60_000, 'sessionsValidAfter: epoch milliseconds, exact');

  await store.oidc.upsert('Session', 's', { accountId: user.id }, 60);
  await store.oidc.upsert('AccessToken', 'long', { accountId: user.id }, 600);
  const pttl = await admin.pttl(`accounts:{account:${user.id}}`);
  t.ok(pttl > 595_000 && pttl <= 600_000, 'the account set lives as long as its longest record');
  clock.advance(61_000);
  await store.sweep();
  t.same(await admin.smembers(`accounts:{account:${user.id}}`), ['["AccessToken","long"]'], 'the sweep prunes members of records that are gone');
  t.equal(await store.oidc.revokeByAccountId(user.id), 1, 'revocation still finds the live one');
});
