import { Redis } from 'ioredis';
import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';

/** /readyz's reports (docs/operations.md → Health and readiness) add what an operator should see, never a 503. */
const readyz = async (url: string) => {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: await res.json() as Record<string, unknown> };
};

t.test('a running-revision report not as an instance writes it counts as none: /readyz stays 200', async (t) => {
  const redis = await startRedis(t);
  const env = redisStoreEnv(redis.url, 'reports');
  const lanyard = await startLanyard(t, { env });
  const admin = new Redis({ host: redis.host, port: redis.port });
  t.teardown(() => admin.disconnect());
  const [reports] = await admin.keys(`${env.LANYARD_REDIS_PREFIX}*running-revisions`);
  t.ok(reports, 'the instances’ reports are kept in Redis');
  await admin.hset(reports!, 'edited-by-hand', '{ not json', 'wrong-shape', JSON.stringify({ version: 'x' }));
  const answer = await readyz(lanyard.url);
  t.match(answer, { status: 200, body: { status: 'ready', config: { mismatch: false, running: [{ instances: 1 }] } } }, 'ready, the odd reports left out');
});

t.test('a stored configuration revision that cannot be read: /readyz stays 200 and says so; the next start writes over it', async (t) => {
  const first = await startLanyard(t);
  await first.store.putSetting('config-revision', '{ edited by hand');
  const answer = await readyz(first.url);
  t.match(answer, { status: 200, body: { status: 'ready', config: { store: { revision: -1, hash: 'unreadable' }, mismatch: true } } });
  t.notMatch(JSON.stringify(answer.body), /edited by hand/, 'the stored text is not shown');
  await first.stop();
  const second = await startLanyard(t, { dir: first.dir });
  t.match(await readyz(second.url), { status: 200, body: { config: { store: { revision: 0 }, mismatch: false } } }, 'a file’s revision replaced it');
});
