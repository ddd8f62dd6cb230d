import { statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { ManualClock } from '../../src/clock.js';
import { RATE_LIMIT_DEFAULTS } from '../../src/config/defaults.js';
import { mostRequestsWithin, rateLimitPolicy } from '../../src/http/rate-limit-policy.js';
import { MAX_INTERACTION_BYTES } from '../../src/provider/authorization-params.js';
import { TTL } from '../../src/provider/ttl.js';
import { writeConfig } from '../helpers/config-file.js';
import { startLanyard } from '../helpers/lanyard.js';
import { startRedis } from '../helpers/redis-server.js';
import { DEMO_CLIENT } from '../helpers/relying-party.js';

/**
 * One client floods GET /oauth/authorize without ever signing in (docs/configuration.md → Adding clients and users measured 600 requests a second
 * growing the store by 10 GiB an hour). Each request that gets through stores one interaction, so the
 * store holds at most what the authorize budgets let one address make within an interaction's lifetime;
 * the rest are 429 with Retry-After and store nothing. The budget here is lowered to 1,000 a minute so
 * 20,000 requests run in seconds; the clock stands still, so they all fall in one window, and the bound is
 * computed from the policy exactly as docs/security.md → Rate limits computes it for the defaults.
 */

const FLOOD = 20_000;
/** On Redis the same flood, shorter: the bound is reached after 1,000 requests either way. */
const REDIS_FLOOD = 5_000;
const CONCURRENCY = 16; // kept-alive connections: 16 sockets carry all 20,000 requests
const PER_MINUTE = 1_000;
/** Stops the flood however slow the machine is: bounded in time as well as in count. */
const DEADLINE_MS = 150_000;

/** A typical anonymous interaction is about 600 bytes of JSON; with its row, indexes and counters, 2 KiB. */
const STORED_BYTES_PER_INTERACTION = 2048;

interface FloodResult { statuses: Record<number, number>; badRetryAfter: number; sent: number; ms: number }

/** One GET on a kept-alive connection of `agent`; node:http is lighter than fetch, and the client shares the CPU. */
function get(agent: Agent, url: URL): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, timeout: 10_000 }, (res) => {
      res.resume(); // read to the end, so the connection is reused
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end();
  });
}

async function flood(issuer: string, count: number): Promise<FloodResult> {
  const url = new URL(`${issuer}/oauth/authorize?${new URLSearchParams({
    client_id: DEMO_CLIENT.id, redirect_uri: DEMO_CLIENT.redirectUri, response_type: 'code', scope: 'openid', state: 'flood',
  })}`);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses: Record<number, number> = {};
  let sent = 0;
  let badRetryAfter = 0;
  const started = Date.now();
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (sent < count && Date.now() - started < DEADLINE_MS) {
        sent += 1;
        const res = await get(agent, url);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 429) {
          const retry = Number(res.retryAfter);
          if (!(Number.isInteger(retry) && retry >= 1 && retry <= 60)) badRetryAfter += 1;
        }
      }
    }));
  } finally {
    agent.destroy();
  }
  return { statuses, badRetryAfter, sent, ms: Date.now() - started };
}

function checkFlood(t: Test, result: FloodResult, count: number, stored: number) {
  const admitted = mostRequestsWithin(rateLimitPolicy({ authorize_per_minute: PER_MINUTE }).authorize, 0);
  t.equal(admitted, PER_MINUTE, 'the policy admits 1,000 requests within one window');
  t.equal(result.sent, count, `all ${count} requests sent (in ${result.ms} ms, ${CONCURRENCY} at a time)`);
  t.same(result.statuses, { 303: PER_MINUTE, 429: count - PER_MINUTE }, 'the budget started sign-ins; every other request was 429');
  t.equal(result.badRetryAfter, 0, 'every 429 carried Retry-After (1–60 seconds)');
  t.equal(stored, admitted, 'the store holds one interaction per admitted request, none for the refused ones');
}

const floodConfig = () => writeConfig((c) => { c.rate_limits = { authorize_per_minute: PER_MINUTE }; });

t.test('the defaults bound what one address can store', async (t) => {
  const { authorize } = rateLimitPolicy();
  t.equal(TTL.Interaction, 15 * 60);
  // Redis frees an interaction when its lifetime ends; SQLite keeps it until the next sweep (every 10 minutes).
  t.equal(mostRequestsWithin(authorize, TTL.Interaction), 2 * RATE_LIMIT_DEFAULTS.authorize_per_hour, 'Redis: 60,000 interactions');
  t.equal(mostRequestsWithin(authorize, TTL.Interaction + 10 * 60), 60_000, 'SQLite: 60,000 interactions');
  t.ok(60_000 * STORED_BYTES_PER_INTERACTION <= 120 * 1024 * 1024, 'typical requests: at most 120 MiB per address');
  t.ok(60_000 * MAX_INTERACTION_BYTES <= 2.05e9, 'requests with every parameter at its cap: about 2.0 GB at most (README)');
  // Today's main stored every request for an hour: 600 requests a second is 2.16 million interactions.
});

t.test(`${FLOOD} anonymous authorize requests on SQLite: the store stays under its bound`, async (t) => {
  const lanyard = await startLanyard(t, {
    clock: new ManualClock(),
    env: { LANYARD_CONFIG: floodConfig(), LANYARD_LOG_LEVEL: 'warn' },
  });
  const db = join(lanyard.dir, 'lanyard.db');
  const sizeBefore = databaseBytes(db);
  const result = await flood(lanyard.url, FLOOD);
  const { interactions, payloadBytes, counters } = storedRows(db);
  checkFlood(t, result, FLOOD, interactions);
  t.ok(payloadBytes <= interactions * MAX_INTERACTION_BYTES, `stored payloads (${payloadBytes} bytes) ≤ interactions × MAX_INTERACTION_BYTES`);
  t.ok(payloadBytes <= interactions * 1024, `and in practice under 1 KiB each (${Math.round(payloadBytes / interactions)} bytes)`);
  t.equal(counters, 2, 'the limiter itself keeps two counters for the address (a minute and an hour), not one per request');
  const growth = databaseBytes(db) - sizeBefore;
  t.ok(growth <= PER_MINUTE * STORED_BYTES_PER_INTERACTION,
    `the database file grew by ${growth} bytes ≤ ${PER_MINUTE} × ${STORED_BYTES_PER_INTERACTION}`);
  t.equal(lanyard.logs.filter((l) => l.includes('"event":"rate_limit.exceeded"')).length, 1, 'one warning, not 19,000');
});

t.test(`${REDIS_FLOOD} anonymous authorize requests on Redis: the same bound`, async (t) => {
  const redis = await startRedis(t);
  const prefix = `flood-${process.pid}`;
  const lanyard = await startLanyard(t, {
    clock: new ManualClock(),
    env: {
      LANYARD_CONFIG: floodConfig(),
      LANYARD_LOG_LEVEL: 'warn',
      LANYARD_STORE: redis.url,
      LANYARD_REDIS_PREFIX: prefix,
      LANYARD_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
    },
  });
  const client = new Redis({ host: redis.host, port: redis.port, lazyConnect: true, maxRetriesPerRequest: 1 });
  t.teardown(() => client.disconnect());
  await client.connect();
  const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
  const before = await usedMemory();
  const result = await flood(lanyard.url, REDIS_FLOOD);
  const records = await client.keys(`${prefix}:{oidc:Interaction}:rec:*`); // a test server: KEYS is fine here
  checkFlood(t, result, REDIS_FLOOD, records.length);
  const counters = await client.keys(`${prefix}:counter:rate:*`);
  t.equal(counters.length, 2, 'two counters for the address');
  const growth = (await usedMemory()) - before;
  t.ok(growth <= PER_MINUTE * STORED_BYTES_PER_INTERACTION,
    `Redis memory grew by ${growth} bytes ≤ ${PER_MINUTE} × ${STORED_BYTES_PER_INTERACTION}`);
  const ttl = await client.pttl(records[0]!);
  t.ok(ttl > 0 && ttl <= TTL.Interaction * 1000, `each interaction expires within 15 minutes (${ttl} ms)`);
});

/** Bytes the database takes once its write-ahead log is folded in (what the data directory keeps). */
function databaseBytes(path: string): number {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return statSync(path).size;
}

function storedRows(path: string) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(length(CAST(payload AS BLOB))), 0) AS bytes
      FROM oidc_records WHERE model = 'Interaction'`).get() as { n: number; bytes: number };
    const counters = (db.prepare("SELECT COUNT(*) AS n FROM counters WHERE key LIKE 'rate:%'").get() as { n: number }).n;
    return { interactions: row.n, payloadBytes: row.bytes, counters };
  } finally {
    db.close();
  }
}
