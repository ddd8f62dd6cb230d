import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { ConfigFile } from '../../src/config/schema.js';
import { KEK_FILE } from '../../src/keys/key-encryption-key.js';
import { demoConfig, writeConfig } from '../helpers/config-file.js';
import { DEMO_CALLBACK } from '../helpers/tokens.js';
import { alive, serveWorkers, spawnServe, until } from '../helpers/workers.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { freePort } from '../helpers/redis-server.js';

const NEW_APP = 'reloaded-app';
const NEW_CALLBACK = 'https://reloaded.example/callback';

/** A GET on a connection of its own (so that it may reach any worker): its status, or the network error's code. */
function getOnNewConnection(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

/** What a request that failed to get an answer gets: the network error's code. */
const failure = (err: unknown) => String((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message);

/**
 * Traffic until `stop()`: two clients on kept-alive connections (fetch) and one opening a connection for
 * each request, one request after another each; every answer's status (or error), for "nothing was refused".
 */
function keepAsking(base: string) {
  const answers: (number | string)[] = [];
  const told = { toMove: 0 };
  let asking = true;
  const paths = ['/healthz', '/.well-known/openid-configuration'];
  const keptAlive = async () => {
    for (let i = 0; asking && i < 100_000; i += 1) {
      answers.push(await fetch(`${base}${paths[i % 2]}`).then(async (r) => {
        await r.arrayBuffer();
        if (r.headers.get('connection') === 'close') told.toMove += 1;
        return r.status;
      }, failure));
    }
  };
  const newConnections = async () => {
    for (let i = 0; asking && i < 100_000; i += 1) answers.push(await getOnNewConnection(`${base}${paths[i % 2]}`));
  };
  const done = Promise.all([keptAlive(), keptAlive(), newConnections()]);
  return { answers, told, stop: async () => { asking = false; await done; return answers; } };
}

const authorizeStatus = async (base: string, clientId: string, redirectUri: string) => {
  const url = `${base}/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&scope=openid`;
  const res = await fetch(url, { redirect: 'manual' });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get('location') ?? '' };
};

const withNewApp = (config: ConfigFile) => {
  config.clients.push({ client_id: NEW_APP, name: 'Reloaded App', secrets: ['reloaded-app-secret-0123456789'], redirect_uris: [NEW_CALLBACK], default_scopes: ['openid'] } as ConfigFile['clients'][number]);
};

t.test('SIGHUP: the configuration file is reloaded and every worker replaced, one at a time, with no request refused, on new or kept-alive connections', async (t) => {
  const configPath = writeConfig(() => {});
  const served = await serveWorkers(t, 2, { LANYARD_CONFIG: configPath });
  const before = await authorizeStatus(served.url, NEW_APP, NEW_CALLBACK);
  t.equal(before.status, 400, 'an app not in the file yet is unknown');

  const config = demoConfig();
  withNewApp(config);
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const traffic = keepAsking(served.url);
  await until(() => traffic.answers.length >= 10, 'traffic flowing');
  served.child.kill('SIGHUP');
  await until(() => served.lines().some((l) => l.event === 'reloaded' || l.event === 'reload.failed'), 'the reload to end', 60_000);
  const answersAfter = traffic.answers.length;
  await until(() => traffic.answers.length >= answersAfter + 20, 'traffic after the reload');
  const answers = await traffic.stop();

  const reloaded = served.lines().find((l) => l.event === 'reloaded');
  if (!reloaded) return t.fail(`not reloaded:\n${served.output()}`);
  t.equal(reloaded.replaced, 2, 'both workers replaced');
  const pids = reloaded.pids as number[];
  t.equal(pids.length, 2, 'still two workers');
  t.notOk(pids.some((pid) => served.workers.includes(pid)), 'new processes');
  await until(() => served.workers.every((pid) => !alive(pid)), 'the old workers gone', 30_000);
  t.pass('the old workers have exited');
  t.notOk(served.lines().some((l) => l.event === 'worker.exited' || l.event === 'worker.restarted'), 'a retired worker is not taken for a dead one (no replacement started)');
  const refused = answers.filter((a) => a !== 200);
  t.same(refused, [], `${answers.length} requests during and after the reload, every one answered 200`);
  // Every kept-alive connection was to an old worker: draining, it answered with Connection: close rather
  // than close the connection under the next request.
  t.ok(traffic.told.toMove >= 1, `kept-alive clients told to move to a new connection (${traffic.told.toMove} times)`);

  const after = await authorizeStatus(served.url, NEW_APP, NEW_CALLBACK);
  t.equal(after.status, 303, 'the app added to the file signs in now');
  t.match(after.location, /\/interaction\//, 'at the hosted login');
  t.equal((await authorizeStatus(served.url, 'demo-app', DEMO_CALLBACK)).status, 303, 'and the others as before');
});

t.test('SIGHUP with a broken file: not reloaded, every problem named, the running workers carry on', async (t) => {
  const configPath = writeConfig(() => {});
  const served = await serveWorkers(t, 2, { LANYARD_CONFIG: configPath });
  const config = demoConfig() as unknown as { clients: { redirect_uris: unknown }[] };
  config.clients[0]!.redirect_uris = 'not a list';
  writeFileSync(configPath, JSON.stringify(config));
  served.child.kill('SIGHUP');
  await until(() => served.lines().some((l) => l.event === 'reload.failed'), 'the reload refused');
  const failed = served.lines().find((l) => l.event === 'reload.failed')!;
  t.match((failed.problems as string[]).join('\n'), /\/clients\/0\/redirect_uris/, 'the problem with its JSON path');
  t.ok(served.workers.every(alive), 'the same workers still run');
  t.equal(await getOnNewConnection(`${served.url}/healthz`), 200, 'and answer');
  t.notOk(served.lines().some((l) => l.event === 'reloaded'), 'nothing reloaded');

  // Mended, the next SIGHUP reloads.
  writeFileSync(configPath, JSON.stringify(demoConfig()));
  served.child.kill('SIGHUP');
  await until(() => served.lines().some((l) => l.event === 'reloaded'), 'reloaded once the file is mended', 60_000);
  t.pass('reloaded once the file is mended');
});

t.test('SIGHUP to a process serving alone: it says it cannot reload, and keeps serving', async (t) => {
  const port = await freePort();
  const served = spawnServe(t, { LANYARD_STORE: 'sqlite::memory:', PORT: String(port), LANYARD_WORKERS: '1' });
  await until(() => served.output().includes('"event":"ready"') || served.child.exitCode !== null, 'ready', 60_000);
  served.child.kill('SIGHUP');
  await until(() => served.output().includes('"event":"reload.unsupported"'), 'the warning');
  t.match(served.output(), /cannot reload its configuration; restart it, or serve with LANYARD_WORKERS of 2 or more/, 'says what to do instead');
  t.ok(alive(served.child.pid!), 'still running');
  t.equal(await getOnNewConnection(`http://127.0.0.1:${port}/healthz`), 200, 'and serving');
});

t.test('SIGTERM in the middle of a reload: the reload ends there, and Lanyard stops cleanly', async (t) => {
  const served = await serveWorkers(t, 2, { LANYARD_CONFIG: writeConfig(() => {}) });
  served.child.kill('SIGHUP');
  await until(() => served.lines().some((l) => l.event === 'reload.started'), 'the reload under way');
  served.child.kill('SIGTERM');
  const { code } = await served.exited;
  t.equal(code, 0, 'the primary exits 0');
  const events = served.lines();
  t.ok(events.some((l) => l.event === 'reload.abandoned' || l.event === 'reloaded'), 'the reload says how it ended');
  t.same(events.filter((l) => (l.level as number) >= 50).map((l) => l.msg), [], 'nothing logged as an error (no worker taken for a failed start)');
  const pids = new Set(events.map((l) => l.pid as number));
  await until(() => [...pids].every((pid) => !alive(pid)), 'every process gone', 20_000);
  t.pass(`none of the ${pids.size} processes is left`);
});

t.test('a new worker that cannot start stops the reload there: the running workers carry on, no more are started', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-reload-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const served = await serveWorkers(t, 2, { LANYARD_CONFIG: writeConfig(() => {}), LANYARD_STORE: `sqlite:${join(dir, 'lanyard.db')}` });
  // The file passes the primary's check; what a new worker then reads first, the key-encryption key, does not.
  const kek = join(dir, KEK_FILE);
  const key = readFileSync(kek, 'utf8');
  writeFileSync(kek, 'not a key\n');
  served.child.kill('SIGHUP');
  await until(() => served.lines().some((l) => l.event === 'reload.failed' || l.event === 'reloaded'), 'the reload to end', 60_000);
  t.match(served.output(), /key-encryption-key: must hold 32 bytes/, 'the new worker said why');
  t.ok(served.lines().some((l) => l.event === 'reload.failed'), 'reload.failed');
  t.notOk(served.lines().some((l) => l.event === 'reloaded'), 'not reported as reloaded');
  t.ok(served.workers.every(alive), 'both running workers carry on');
  t.equal(await getOnNewConnection(`${served.url}/healthz`), 200, 'and answer');
  t.notOk(served.lines().some((l) => l.event === 'worker.restart_failed' || l.event === 'worker.exited'), 'no replacement loop started');

  writeFileSync(kek, key);
  served.child.kill('SIGHUP');
  await until(() => served.lines().some((l) => l.event === 'reloaded'), 'reloaded once the key is back', 60_000);
  const reloaded = served.lines().find((l) => l.event === 'reloaded')!;
  t.equal((reloaded.pids as number[]).length, 2, 'the next SIGHUP reloads: two workers, no more');
});

t.test('counters never go down on a reload: the replaced workers hand their counts to the primary', async (t) => {
  const served = await serveWorkers(t, 2, { LANYARD_CONFIG: writeConfig(() => {}) });
  const healthz = async () => {
    const res = await fetch(`${served.url}/metrics`);
    t.equal(res.status, 200, 'scraped');
    return sampleValue(parsePrometheusText(await res.text()), 'lanyard_http_requests_total', { method: 'GET', route: '/healthz', status: '200' }) ?? 0;
  };
  for (let i = 0; i < 20; i += 1) t.equal(await getOnNewConnection(`${served.url}/healthz`), 200);
  const before = await healthz();
  t.equal(before, 20, 'both workers’ counts, summed');
  served.child.kill('SIGHUP');
  // Scraped all through the reload: each worker's counts come once, from it or from the primary.
  const during: number[] = [];
  while (!served.lines().some((l) => l.event === 'reloaded' || l.event === 'reload.failed') && during.length < 2_000) {
    const res = await fetch(`${served.url}/metrics`);
    during.push(res.status === 200 ? sampleValue(parsePrometheusText(await res.text()), 'lanyard_http_requests_total', { method: 'GET', route: '/healthz', status: '200' }) ?? 0 : -res.status);
  }
  t.ok(during.length > 5, `${during.length} scrapes during the reload`);
  t.same([...new Set(during)], [20], 'every one answered, and showed 20: never fewer, never twice');
  t.equal(await healthz(), 20, 'the same after both workers were replaced: carried over, not lost and not counted twice');
  for (let i = 0; i < 5; i += 1) await getOnNewConnection(`${served.url}/healthz`);
  t.equal(await healthz(), 25, 'and the new workers’ counts add to them');
});
