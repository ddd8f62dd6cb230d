import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import t from 'tap';
import { openStore } from '../../../adapters/open-store.js';
import { earlierEmailKey } from '../../../adapters/store/developers.js';
import { ManualClock } from '../../../src/clock.js';
import { startRedis } from '../../helpers/redis-server.js';

/**
 * Developer accounts are keyed by their address with the domain in ASCII; an account made before was keyed
 * with its IDN domain as it reads. Both stores still find it, by either spelling (adapters/store/developers.ts).
 */

const account = (email: string) => ({
  id: 'dev_ida', email, displayName: 'Ida', passwordHash: 'x', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
});

t.test('the earlier key of an address: its IDN domain as it reads', async (t) => {
  t.equal(earlierEmailKey('ida@xn--bcher-kva.example'), 'ida@bücher.example');
  t.equal(earlierEmailKey('ida@mail.xn--bcher-kva.example'), 'ida@mail.bücher.example');
  t.equal(earlierEmailKey('ida@example.org'), undefined, 'an ASCII domain has no other form');
  t.equal(earlierEmailKey('not an address'), undefined);
});

t.test('SQLite: an account stored under its Unicode domain is found by either spelling', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-earlier-email-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'lanyard.db');
  const store = await openStore(`sqlite:${path}`, new ManualClock());
  await store.createDeveloper(account('placeholder@example.org'));
  await store.close();
  const db = new Database(path);
  db.prepare("UPDATE developers SET email = 'ida@bücher.example' WHERE id = 'dev_ida'").run(); // as an earlier release keyed it
  db.close();
  const reopened = await openStore(`sqlite:${path}`, new ManualClock());
  t.teardown(() => reopened.close());
  t.equal((await reopened.findDeveloperByEmail('Ida@Bücher.Example'))?.id, 'dev_ida', 'typed with the Unicode domain');
  t.equal((await reopened.findDeveloperByEmail('ida@xn--bcher-kva.example'))?.id, 'dev_ida', 'typed in ASCII');
  t.equal(await reopened.findDeveloperByEmail('ida@example.org'), undefined);
});

t.test('Redis: an account indexed under its Unicode domain is found by either spelling', async (t) => {
  const redis = await startRedis(t);
  const store = await openStore(redis.url, new ManualClock(), { redisPrefix: 'earlier' });
  t.teardown(() => store.close());
  await store.createDeveloper(account('ida@xn--bcher-kva.example'));
  const admin = new Redis({ host: redis.host, port: redis.port });
  t.teardown(() => admin.disconnect());
  const [index] = await admin.keys('earlier*emails');
  await admin.hdel(index!, 'ida@xn--bcher-kva.example');
  await admin.hset(index!, 'ida@bücher.example', 'dev_ida'); // as an earlier release indexed it
  t.equal((await store.findDeveloperByEmail('ida@bücher.example'))?.id, 'dev_ida', 'typed with the Unicode domain');
  t.equal((await store.findDeveloperByEmail('IDA@xn--bcher-kva.example'))?.id, 'dev_ida', 'typed in ASCII');
});
