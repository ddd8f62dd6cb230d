import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { HASHING_NICE } from '../../src/cluster/hashing-priority.js';
import { WORKER_SEMI_SPACE_MB } from '../../src/process/sizing.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { DEMO_CALLBACK, demoBasic } from '../helpers/tokens.js';
import { alive, serveWorkers, spawnServe, until } from '../helpers/workers.js';

/** A GET on a connection of its own (so that requests are spread over the workers): the answering pid. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** How many connections a process holds to the SQLite file (its descriptors on it; the -wal and -shm files aside). */
function sqliteConnections(pid: number): number {
  const fds = readdirSync(`/proc/${pid}/fd`).map((fd) => { try { return readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { return ''; } });
  return fds.filter((target) => target.endsWith('/lanyard.db')).length;
}

async function exchange(url: string, code: string) {
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: demoBasic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: DEMO_CALLBACK }),
  });
  return { status: res.status, body: await res.json() as Record<string, string> };
}

/** The nice values of a process's libuv pool threads and main thread (from /proc), each list without repeats. */
function niceValues(pid: number): Record<string, number[]> {
  const out: Record<string, Set<number>> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    if (comm !== 'libuv-worker' && comm !== 'MainThread') continue;
    // Field 19 of stat is the nice value; the command name (field 2) may hold spaces, so count after its ')'.
    const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(')').pop()!.trim().split(' ');
    (out[comm] ??= new Set()).add(Number(fields[16]));
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v]]));
}

t.test('LANYARD_WORKERS=2: two processes share the port and the store, a dead one is replaced, SIGTERM stops them all', async (t) => {
  const served = await serveWorkers(t, 2);
  t.equal(served.workers.length, 2, 'two workers');
  t.not(served.workers[0], served.workers[1], 'two processes');
  t.ok(served.workers.every(alive), 'both running');
  // One checkpoint thread for the machine, the primary's: its own connection and the thread's; a worker only its own.
  t.equal(sqliteConnections(served.child.pid!), 2, 'the primary: its connection and the checkpoint thread’s');
  t.same(served.workers.map(sqliteConnections), [1, 1], 'each worker: its connection only');
  // Hashing (the primary's libuv pool) yields to serving; everything else keeps the usual priority.
  const usual = getPriority(); // this test's own: Lanyard's processes inherit it
  t.same(niceValues(served.child.pid!), { 'libuv-worker': [Math.min(19, usual + HASHING_NICE)], MainThread: [usual] }, 'the primary: its pool lowered, its main thread not');
  // libuv starts a worker's pool threads at its first job (writing its first lines, a moment after they are
  // made): waited for, as for the replacement below, or a worker seen too early has no pool to look at.
  for (const pid of served.workers) {
    await until(() => 'libuv-worker' in niceValues(pid), 'a worker\'s thread pool', 5_000).catch(() => {});
    t.same(niceValues(pid), { 'libuv-worker': [usual], MainThread: [usual] }, 'a worker: the usual priority');
  }
  // A smaller young generation for each worker, not for the primary.
  const semiSpace = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a.startsWith('--max-semi-space-size'));
  t.same(served.workers.map(semiSpace), [[`--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`], [`--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`]], 'each worker: its young generation bounded');
  t.same(semiSpace(served.child.pid!), [], 'the primary: as it was started');

  // Connections are shared out: each answers on its own connection, and both workers answer.
  for (let i = 0; i < 20; i += 1) t.equal(await getOnNewConnection(`${served.url}/.well-known/openid-configuration`), 200);
  // Each worker writes its lines a moment later (src/logging.ts serverLogStream): waited for.
  const answeredBy = () => new Set(served.lines().filter((l) => (l.req as { url?: string } | undefined)?.url === '/.well-known/openid-configuration').map((l) => l.pid));
  await until(() => answeredBy().size >= 2, 'both workers\' request lines', 5_000).catch(() => {});
  t.same([...answeredBy()].sort(), [...served.workers].sort(), 'requests were answered by both workers');

  // A sign-in and code exchange work whichever worker answers each step (the store is shared).
  const authorize = `${served.url}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(DEMO_CALLBACK)}&response_type=code&scope=openid`;
  const callback = await signIn(new HttpBrowser(), served.url, authorize, TEACHER);
  const tokens = await exchange(served.url, callback.searchParams.get('code')!);
  t.equal(tokens.status, 200, 'code exchanged');
  t.ok(tokens.body.id_token, 'ID token issued');

  // A sign-in on a worker (the primary checked the password for it).
  const signedInByWorker = () => served.lines().some((l) => l.event === 'login.succeeded' && served.workers.includes(l.pid as number));
  await until(signedInByWorker, 'the sign-in\'s line', 5_000).catch(() => {});
  t.ok(signedInByWorker(), 'signed in by a worker');

  // A worker that dies is replaced; the service answers throughout.
  const [victim, survivor] = served.workers as [number, number];
  process.kill(victim, 'SIGKILL');
  await until(() => served.lines().some((l) => l.event === 'worker.restarted'), 'a replacement worker');
  const exitedLine = served.lines().find((l) => l.event === 'worker.exited');
  t.equal(exitedLine?.pid, victim, 'the death was logged');
  t.equal(exitedLine?.signal, 'SIGKILL', 'with its signal');
  const replacement = served.lines().find((l) => l.event === 'worker.restarted')?.pid as number;
  t.ok(alive(replacement) && replacement !== victim, 'a new worker runs');
  // Its pool, as above, once started.
  await until(() => 'libuv-worker' in niceValues(replacement), 'the new worker\'s thread pool', 5_000).catch(() => {});
  t.same(niceValues(replacement), { 'libuv-worker': [usual], MainThread: [usual] }, 'at the usual priority, though forked after the primary lowered its pool');
  t.same(semiSpace(replacement), [`--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`], 'and with the same young generation');
  for (let i = 0; i < 10; i += 1) t.equal(await getOnNewConnection(`${served.url}/.well-known/jwks.json`), 200);

  // SIGTERM: every worker finishes and exits, then the primary, with status 0.
  served.child.kill('SIGTERM');
  const { code } = await served.exited;
  t.equal(code, 0, 'the primary exits 0');
  await until(() => !alive(survivor) && !alive(replacement), 'workers gone', 5_000);
  t.pass('no worker left running');
  // Every line the workers held when told to stop was written before they exited (src/logging.ts
  // serverLogStream): their last requests' lines and their own stopping line, once the shared pipe closes.
  if (!served.child.stdout!.closed) await Promise.race([once(served.child.stdout!, 'close'), sleep(5_000)]);
  const keySetLines = served.lines().filter((l) => (l.req as { url?: string } | undefined)?.url === '/.well-known/jwks.json');
  t.equal(keySetLines.length, 10, 'the last 10 requests\' lines were all written');
  t.same(served.lines().filter((l) => l.event === 'worker.stopping').map((l) => l.pid).sort(), [survivor, replacement].sort(), 'each worker\'s stopping line too');
});

t.test('workers leave when the primary dies', async (t) => {
  const served = await serveWorkers(t, 2);
  served.child.kill('SIGKILL');
  await served.exited;
  await until(() => served.workers.every((pid) => !alive(pid)), 'workers gone after the primary', 15_000);
  t.pass('both workers stopped by themselves');
});

t.test('a worker that cannot start stops Lanyard with its reason and status', async (t) => {
  // The port is taken by a listener of another program (one that starts at once, where a Lanyard takes seconds).
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const port = String((taken.address() as AddressInfo).port);
  const second = spawnServe(t, { LANYARD_STORE: 'sqlite::memory:', PORT: port, LANYARD_WORKERS: '1' });
  t.not((await second.exited).code, 0, 'one process: the port is taken');
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-clash-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const clash = spawnServe(t, { LANYARD_STORE: `sqlite:${join(dir, 'lanyard.db')}`, PORT: port, LANYARD_WORKERS: '2' });
  const { code } = await clash.exited;
  t.not(code, 0, 'two workers on a taken port: Lanyard stops, not loops');
  t.match(clash.output(), /EADDRINUSE|address already in use/i, 'and says why');
  t.notOk(clash.output().includes('"event":"ready"'), 'never said it was ready');
});

t.test('LANYARD_WORKERS is checked at startup', async (t) => {
  for (const [value, store, why] of [['many', 'sqlite::memory:', /LANYARD_WORKERS: "many" must be a number of processes from 1 to 64, or auto/], ['2', 'sqlite::memory:', /LANYARD_WORKERS: 2 processes cannot share LANYARD_STORE=sqlite::memory:/]] as const) {
    const run = spawnServe(t, { LANYARD_STORE: store, PORT: '0', LANYARD_WORKERS: value });
    t.equal((await run.exited).code, 78, `${value}: a configuration error`);
    t.match(run.output(), why, `${value}: names the variable and the problem`);
  }
});
