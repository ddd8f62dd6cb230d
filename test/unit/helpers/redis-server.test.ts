import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import t from 'tap';
import { findRedisServer, startRedis, startSentinelSet } from '../../helpers/redis-server.js';

/** A client that fails at once when the server is down, rather than queueing and retrying. */
async function withClient<T>(url: string, fn: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(url, {
    lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return await fn(client);
  } finally {
    client.disconnect();
  }
}

t.test('findRedisServer finds the binary', async (t) => {
  t.match(findRedisServer(), /redis-server$/);
});

t.test('a single server survives stop/start and kill/start through its AOF', async (t) => {
  const redis = await startRedis(t);
  t.ok(redis.running, 'running after start');
  t.equal(redis.url, `redis://127.0.0.1:${redis.port}`);
  t.equal(await withClient(redis.url, (c) => c.set('graceful', 'kept')), 'OK');

  const { port, pid } = redis;
  await redis.stop();
  t.notOk(redis.running, 'not running after stop');
  await redis.start();
  t.equal(redis.port, port, 'same port after restart');
  t.not(redis.pid, pid, 'a new process');
  t.equal(await withClient(redis.url, (c) => c.get('graceful')), 'kept', 'AOF reloaded after a graceful stop');

  // appendfsync always: an acknowledged write survives a crash too.
  await withClient(redis.url, (c) => c.set('crash', 'kept'));
  await redis.kill();
  t.notOk(redis.running, 'not running after kill');
  await t.rejects(withClient(redis.url, (c) => c.ping()), 'a connection to a killed server fails');

  await redis.start();
  t.equal(await withClient(redis.url, (c) => c.ping()), 'PONG', 'answers again after start');
  t.same(await withClient(redis.url, (c) => c.mget('graceful', 'crash')), ['kept', 'kept'], 'both writes survived the kill');
});

t.test('a sentinel set fails over to the replica', async (t) => {
  const set = await startSentinelSet(t);
  t.equal(set.url, `redis-sentinel://127.0.0.1:${set.sentinel.port}/lanyard`);
  const client = new Redis({
    sentinels: [{ host: set.sentinel.host, port: set.sentinel.port }], name: set.masterName,
    maxRetriesPerRequest: 1, retryStrategy: () => 200, sentinelRetryStrategy: () => 200, commandTimeout: 2000,
  });
  client.on('error', () => {});
  t.teardown(() => client.disconnect());

  t.equal(await client.set('before', 'failover'), 'OK');
  t.equal(await client.info('server').then((s) => /tcp_port:(\d+)/.exec(s)?.[1]), String(set.primary.port), 'talking to the primary');
  // Make sure the write reached the replica before the primary dies.
  t.equal(await client.call('WAIT', '1', '5000'), 1, 'replicated to the replica');

  await set.failover();
  t.notOk(set.primary.running, 'old primary is dead');

  let written: string | undefined;
  for (let i = 0; i < 50 && written === undefined; i += 1) {
    written = await client.set('after', 'failover').catch(async () => { await sleep(200); return undefined; }) ?? undefined;
  }
  t.equal(written, 'OK', 'the same Sentinel-mode client writes after the failover');
  t.equal(await client.info('server').then((s) => /tcp_port:(\d+)/.exec(s)?.[1]), String(set.replica.port), 'now talking to the old replica');
  t.equal(await client.get('before'), 'failover', 'the earlier write is on the new primary');
  t.equal(await withClient(set.replica.url, (c) => c.get('after')), 'failover', 'the new write landed on the replica');
});
