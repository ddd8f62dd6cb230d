import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { projectRoot } from '../../src/package-files.js';
import { lanyard } from '../helpers/cli.js';
import { freePort } from '../helpers/lanyard.js';
import { LANYARD_ARGV } from '../helpers/lanyard-command.js';
import { compileCacheEnv } from '../helpers/child-env.js';

/**
 * `lanyard serve` on a real pseudo-terminal (script(1), as an operator's shell runs it) prints a summary
 * and short lines; into a pipe, or with LANYARD_LOG_FORMAT=json, JSON lines. One data directory for all
 * runs, so the signing key is made once.
 */

const dir = mkdtempSync(join(tmpdir(), 'lanyard-startup-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const store = `sqlite:${join(dir, 'lanyard.db')}`;
interface Served { port: number; demoPort: number; output: () => string; stop: () => Promise<void> }

/**
 * Starts `lanyard serve` (through script(1) for a terminal) and waits until `ready` shows in its output. The
 * Demo App is moved to a free port (LANYARD_DEMO_APP), so that nothing on this machine's 8080 decides the test.
 */
async function serve(t: Test, o: { tty: boolean; env?: Record<string, string>; ready: RegExp }): Promise<Served> {
  const port = await freePort();
  const demoPort = await freePort();
  const argv = [process.execPath, ...LANYARD_ARGV, 'serve'];
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...compileCacheEnv(), PORT: String(port), HOST: '127.0.0.1', LANYARD_STORE: store, LANYARD_DEMO_APP: String(demoPort), ...o.env };
  const child: ChildProcess = o.tty
    ? spawn('script', ['-qec', argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' '), '/dev/null'], { cwd: projectRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(argv[0]!, argv.slice(1), { cwd: projectRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => { out += String(d).replace(/\r\n/g, '\n'); });
  child.stderr!.on('data', (d) => { out += String(d).replace(/\r\n/g, '\n'); });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    // Through script(1), Lanyard leads a session of its own on the terminal, out of reach of script's group:
    // stopped directly, script ends with it at once (told to stop itself, script waits 2 s before it exits).
    const leaders = o.tty ? childrenOf(child.pid!) : [];
    for (const pid of leaders.length ? leaders : [child.pid!]) {
      try { process.kill(-pid, 'SIGTERM'); } catch { /* already gone */ }
    }
    await closed;
  };
  t.teardown(stop);
  const deadline = Date.now() + 120_000;
  while (!o.ready.test(out)) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`lanyard serve exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`lanyard serve not ready within 120 s:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { port, demoPort, output: () => out, stop };
}

/** The processes `pid` started (Linux: /proc), none once it has gone. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Waits until the output matches (a log line is written after the response is sent). Throws after 10 s: a
 * pattern that no longer matches what Lanyard writes fails here rather than costing every run the wait.
 */
async function until(served: Served, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!pattern.test(served.output())) {
    if (Date.now() > deadline) throw new Error(`not in the output within 10 s: ${pattern}\n${served.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return served.output();
}

/** Every non-empty line is a JSON object: what log collectors read. */
function jsonLines(t: Test, text: string, what: string) {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const parsed = lines.map((l) => { try { return JSON.parse(l) as { event?: string; msg?: string }; } catch { return undefined; } });
  t.same(lines.filter((_, i) => !parsed[i]), [], `${what}: every line is JSON`);
  t.ok(parsed.some((p) => p?.event === 'ready'), `${what}: the ready event`);
  t.ok(parsed.some((p) => p?.event === 'config.unsafe_default'), `${what}: the warnings as events`);
  t.notMatch(text, 'Lanyard is ready.\n', `${what}: no summary`);
}

t.test('into a pipe: JSON lines', async (t) => {
  const served = await serve(t, { tty: false, env: { LANYARD_DEMO_APP: 'off' }, ready: /"event":"ready"/ });
  await fetch(`http://127.0.0.1:${served.port}/healthz`);
  // One line per request, with its status (src/http/request-log.ts).
  jsonLines(t, await until(served, /"url":"\/healthz"[^\n]*"statusCode":200/), 'pipe');
  await served.stop();
});

t.test('on a terminal: a summary in plain words, then one short line per request', async (t) => {
  const served = await serve(t, { tty: true, ready: /Stop with Ctrl-C\.\n/ });
  const text = served.output();
  const summary = text.slice(text.indexOf('Lanyard is ready.'));
  t.match(summary, `Open            http://localhost:${served.port}/  (use this address`, 'the address to open');
  t.match(summary, `Issuer          http://localhost:${served.port}\n`);
  t.match(summary, `Discovery       http://localhost:${served.port}/.well-known/openid-configuration\n`);
  t.match(summary, `Demo App        http://localhost:${served.demoPort}/`);
  t.match(await (await fetch(`http://localhost:${served.demoPort}/`)).text(), 'Sign in with Lanyard', 'the Demo App runs there');
  const login = await fetch(`http://localhost:${served.demoPort}/login`, { redirect: 'manual' });
  t.match(new URL(login.headers.get('location')!).searchParams.get('redirect_uri'), `http://localhost:${served.demoPort}/callback`, 'its sign-in names the moved callback');
  // The command the summary gives for a developer account carries what this server is run with, so the link
  // it prints is this server's (the issuer follows PORT) and the invitation lands in this store.
  const invite = new RegExp(`Developer area {2}http://localhost:${served.port}/developer {2}\\(an account: (PORT=${served.port} LANYARD_STORE=\\S+) npm run lanyard -- developers invite YOU@EXAMPLE\\.ORG`).exec(summary);
  t.ok(invite, 'the summary’s command names PORT and LANYARD_STORE');
  t.equal(invite?.[1], `PORT=${served.port} LANYARD_STORE=${store}`);
  const prefix = Object.fromEntries(invite![1]!.split(' ').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  const invited = await lanyard(['developers', 'invite', 'ada@example.org'], prefix);
  t.equal(invited.code, 0, 'the command as printed runs');
  t.match(invited.stdout, `http://localhost:${served.port}/developer/invitations/`, 'and its link is this server’s');
  t.equal((await fetch(invited.stdout.match(/http:\/\/\S+/)![0])).status, 200, 'which knows the invitation');
  t.match(summary, 'Demo users of Demo School (organisation "demo-school"):');
  t.match(summary, /password +teacher \/ teacher-pass — Tess Teacher, employee\n/);
  t.match(summary, /password +pupil \/ pupil-pass — Pip Pupil, student\n/);
  t.match(summary, /emoji password +emoji-kid \/ 🐶 🍎 🚀 ⭐ 🐱 🍕 \(dog, apple, rocket, star, cat, pizza\) — Emmy Emoji, student\n/);
  t.match(summary, /badge +badge-kid \/ BADG-EDEM-0000-0000-0000-0000-01 .*— Bex Badge, student\n/);
  t.match(summary, `Store           ${store}\n`);
  t.match(summary, `Data directory  ${dir}\n`);
  t.match(summary, `Signing keys    encrypted with ${join(dir, 'key-encryption-key')}`);
  t.match(summary, /Warnings:\n {2}! DEVELOPMENT CONFIGURATION in use \(.*config\/demo\.json\): its passwords and secrets are public/);
  t.match(summary, '! LANYARD_COOKIE_KEYS unset: cookie signing keys are generated');
  t.notMatch(text, /^\{/m, 'no JSON line');
  t.notMatch(text, 'Server listening at', 'where it listens is in the summary');

  await fetch(`http://127.0.0.1:${served.port}/healthz`);
  t.match(await until(served, /GET \/healthz 200/), /\n\d\d:\d\d:\d\d {2}GET \/healthz 200 \d+ ms\n/, 'a short line per request');
  await served.stop();
});

t.test('a demo badge printed again, an emoji password issued again: the summary no longer offers the configuration\'s', async (t) => {
  const printed = await lanyard(['badges', 'print', '--org', 'demo-school', '--out', join(dir, 'badges.pdf')], { LANYARD_STORE: store });
  t.equal(printed.code, 0, 'badges printed (new codes; the configuration\'s is retired)');
  const issued = await lanyard(['users', 'emoji', '--org', 'demo-school', '--user', 'emoji-kid'], { LANYARD_STORE: store });
  t.equal(issued.code, 0, 'a new emoji password for emoji-kid');
  const served = await serve(t, { tty: true, env: { LANYARD_DEMO_APP: 'off' }, ready: /Stop with Ctrl-C\.\n/ });
  const summary = served.output();
  t.match(summary, /badge +badge-kid \/ \(the configuration's badge: replaced since with the lanyard command\) — Bex Badge, student\n/);
  t.notMatch(summary, 'BADG-EDEM-0000-0000-0000-0000-01', 'the retired code is not shown');
  t.match(summary, /emoji password +emoji-kid \/ \(the configuration's emoji password: replaced since with the lanyard command\) — Emmy Emoji, student\n/);
  t.match(summary, /password +teacher \/ teacher-pass — Tess Teacher, employee\n/, 'what still works is shown as before');
  await served.stop();
});

t.test('on a terminal with LANYARD_LOG_FORMAT=json: JSON lines', async (t) => {
  const served = await serve(t, { tty: true, env: { LANYARD_LOG_FORMAT: 'json', LANYARD_DEMO_APP: 'off' }, ready: /"event":"ready"/ });
  jsonLines(t, served.output(), 'terminal, LANYARD_LOG_FORMAT=json');
  await served.stop();
});

t.test('the Demo App\'s port is taken: the summary says so and how to move it, and Lanyard serves', async (t) => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const demoPort = (taken.address() as AddressInfo).port;
  const served = await serve(t, { tty: true, env: { LANYARD_DEMO_APP: String(demoPort) }, ready: /Stop with Ctrl-C\.\n/ });
  const summary = served.output();
  t.match(summary, `! Demo App not started on port ${demoPort}: the port is in use (LANYARD_DEMO_APP=<another port> moves it, LANYARD_DEMO_APP=off turns it off)`);
  t.notMatch(summary, /Demo App {8}http/, 'no Demo App address');
  t.equal((await fetch(`http://127.0.0.1:${served.port}/healthz`)).status, 200, 'Lanyard serves');
  await served.stop();
});

t.test('LANYARD_DEMO_APP that is neither on, off nor a port: startup stops and names it', async (t) => {
  for (const [value, problem] of [['8o80', '"8o80" must be on, off or the port'], ['70000', '"70000" must be on, off or the port']] as const) {
    const served = serve(t, { tty: false, env: { LANYARD_DEMO_APP: value }, ready: /"event":"ready"/ });
    await t.rejects(served, new RegExp(`exited early:[^]*LANYARD_DEMO_APP: ${problem.replace(/"/g, '\\"?')}`), value);
  }
});
