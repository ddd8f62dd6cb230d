import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { openRedisStore } from '../../adapters/redis.js';
import { parseRedisUrl } from '../../src/config/store-url.js';
import { ManualClock } from '../../src/clock.js';
import { freePort, startRedis } from '../helpers/redis-server.js';

/**
 * A token's write reaches Redis in one round trip (adapters/redis/oidc-records.ts): the record's script and
 * its additions to its grant's and its account's sets are sent together, not each after the answer to the
 * one before. Seen through a proxy between the store and a real redis-server that counts the commands the
 * store sends and can hold Redis's answers back: while they are held, a write sent in one go arrives whole,
 * and a write that waits for answers stops after its first command.
 */

/** Complete RESP commands (arrays of bulk strings, as ioredis sends them) at the start of `buf`, and the rest. */
function completeCommands(buf: Buffer): { count: number; rest: Buffer } {
  const line = (from: number) => {
    const end = buf.indexOf('\r\n', from);
    return end < 0 ? undefined : { text: buf.toString('latin1', from, end), next: end + 2 };
  };
  let at = 0;
  let count = 0;
  for (;;) {
    const head = line(at);
    if (!head) break;
    if (!head.text.startsWith('*')) throw new Error(`not a RESP array: ${head.text}`);
    let next: number | undefined = head.next;
    for (let i = 0; i < Number(head.text.slice(1)) && next !== undefined; i += 1) {
      const size = line(next);
      if (!size) { next = undefined; break; }
      const end = size.next + Number(size.text.slice(1)) + 2;
      next = end <= buf.length ? end : undefined;
    }
    if (next === undefined) break;
    at = next;
    count += 1;
  }
  return { count, rest: buf.subarray(at) };
}

interface Proxy {
  port: number;
  /** Commands received since `hold()`. */
  readonly sent: number;
  /** From now on, Redis's answers wait until `release()`; the count starts again. */
  hold(): void;
  release(): void;
}

async function startProxy(redisPort: number, teardown: (fn: () => unknown) => void): Promise<Proxy> {
  let holding = false;
  let sent = 0;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: redisPort });
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      const { count, rest } = completeCommands(Buffer.concat([pending, chunk]));
      pending = Buffer.from(rest);
      if (holding) sent += count;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (holding) held.push(() => client.write(chunk));
      else client.write(chunk);
    });
    const close = () => { client.destroy(); upstream.destroy(); };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  teardown(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    port,
    get sent() { return sent; },
    hold() { holding = true; sent = 0; },
    release() { holding = false; for (const send of held.splice(0)) send(); },
  };
}

t.test('redis: a token write is sent in one go, its record and both its sets', async (t) => {
  const redis = await startRedis(t, { aof: false });
  const proxy = await startProxy(redis.port, (fn) => t.teardown(fn));
  const store = await openRedisStore(parseRedisUrl(`redis://127.0.0.1:${proxy.port}`), new ManualClock(new Date('2027-01-15T12:00:00.000Z')), 'rt');
  t.teardown(() => store.close());
  const token = (jti: string) => ({ jti, kind: 'AccessToken', grantId: 'g1', accountId: 'u1', clientId: 'app' });
  await store.oidc.upsert('AccessToken', 'warm', token('warm'), 60); // the scripts are loaded now

  proxy.hold();
  const written = store.oidc.upsert('AccessToken', 'at1', token('at1'), 60);
  // Bounded: a write sent in one go arrives at once; one that waits for answers never sends the rest.
  for (let waited = 0; proxy.sent < 3 && waited < 1000; waited += 10) await sleep(10);
  await sleep(50); // nothing more follows
  const sentTogether = proxy.sent;
  proxy.release();
  await written;
  t.equal(sentTogether, 3, 'the record, its grant set and its account set: three commands before any answer');

  t.same(await store.oidc.find('AccessToken', 'at1'), token('at1'), 'the record is written');
  await store.oidc.revokeByGrantId('g1');
  t.equal(await store.oidc.find('AccessToken', 'at1'), undefined, 'and found through its grant: revoked with it');
  await store.oidc.upsert('AccessToken', 'at2', token('at2'), 60);
  t.equal(await store.oidc.revokeByAccountId('u1'), 1, 'and through its account');
});
