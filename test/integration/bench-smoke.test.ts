import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Figure } from '../../bench/load.js';
import { groupAlive } from '../../bench/proc.js';
import { findRedisServer } from '../../bench/redis.js';
import type { Results } from '../../bench/results.js';
import { projectRoot } from '../../src/package-files.js';

/**
 * Keeps `npm run bench` working (docs/performance.md): a short smoke run of it runs in CI. The bench is not a
 * test, so nothing here looks at a timing: only that a --smoke run goes through every scenario on every
 * server without an error, writes its JSON, and leaves no process behind.
 */

const REPO = projectRoot;
const TIME_LIMIT_MS = 150_000; // under tap's 180 s; a smoke run takes seconds (plus a build when dist/ is stale)

/** Runs the bench's entry (what `npm run bench` runs) with a deadline: SIGTERM, then SIGKILL, past it. */
function runBench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  // Without tap's loaders: the bench and the servers it starts run as they would from a shell.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_OPTIONS' && !k.startsWith('_TAPJS')));
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM'); // the bench stops everything it started, then exits
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  }, TIME_LIMIT_MS);
  return new Promise((resolve) => child.once('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr, timedOut }); }));
}

t.test('npm run bench -- --smoke measures every scenario on every server and leaves nothing running', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-bench-smoke-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const json = join(dir, 'results.json');

  const run = await runBench(['--smoke', '--json', json]);
  t.notOk(run.timedOut, `finished within ${TIME_LIMIT_MS / 1000} s`);
  t.equal(run.code, 0, 'exits 0', { stderr: run.stderr.slice(-3000) });
  t.match(run.stdout, /code exchange/, 'prints the table');
  t.match(run.stdout, /target \(docs\/performance\.md\)/, 'prints the ratios');

  const r = JSON.parse(readFileSync(json, 'utf8')) as Results;
  t.equal(r.profile, 'smoke');
  t.ok(r.limits && r.limits.rsaSignaturesPerSecond > 0, 'RSA-4096 signing rate, four primes');
  t.ok(r.limits && r.limits.rsaTwoPrimeSignaturesPerSecond > 0, 'RSA-4096 signing rate, two primes');
  t.ok(r.limits && r.limits.argon2VerifyOneThread > 0 && r.limits.argon2VerifyAtConcurrency > 0, 'argon2id verify rates');
  // CPU a window can hold: every core's second, per second (its per-operation figure rounded to the µs).
  const fitsCores = (msPerOp: number | undefined, perSecond: number | undefined) =>
    msPerOp !== undefined && perSecond !== undefined && msPerOp > 0 && msPerOp * perSecond <= r.machine.cores * 1000 + 0.001 * perSecond;
  t.ok(fitsCores(r.limits?.rsaSignatureCpuMs, r.limits?.rsaSignaturesPerSecond)
    && fitsCores(r.limits?.rsaTwoPrimeSignatureCpuMs, r.limits?.rsaTwoPrimeSignaturesPerSecond), 'the CPU one signature costs, each key, within what the cores hold');
  t.match(run.stdout, /\/s · CPU [\d.]+ ms each/, 'prints it beside the signing rate');

  const clean = (name: string, f: Figure | undefined) => {
    t.ok(f && f.rate > 0 && f.ok > 0, `${name}: a positive rate`);
    t.same(f?.errors, {}, `${name}: no errors`);
  };
  const redisInstalled = findRedisServer() !== undefined;
  const servers: ('bare' | 'sqlite' | 'redis')[] = ['bare', 'sqlite', ...(redisInstalled ? ['redis' as const] : [])];
  if (!redisInstalled) t.match(r.targets.redis?.skipped, /redis-server/, 'without redis-server, the Redis column says why it is empty');
  for (const key of servers) {
    const s = r.targets[key];
    t.ok(s && !s.skipped, `${key} was measured`);
    if (!s) continue;
    for (const scenario of ['exchange', 'refresh', 'discovery', 'jwks'] as const) clean(`${key} ${scenario}`, s[scenario]);
    if (key === 'bare') continue;
    clean(`${key} sign-in`, s.signIn);
    const around = s.signIn?.argon2Around;
    t.ok(around && around.before > 0 && around.after > 0, `${key} sign-in: the argon2id rate just before and after its phase`);
    clean(`${key} exchanges alone`, s.storm?.alone);
    clean(`${key} exchanges during the storm`, s.storm?.during);
    clean(`${key} the storm's sign-ins`, s.storm?.signIns);
    const peak = s.morningPeak;
    t.ok(peak && peak.rate > 0 && peak.ok === peak.pupils, `${key} morning peak: every pupil signed in`);
    t.equal(peak?.unexpected, 0, `${key} morning peak: no unexpected failures (${JSON.stringify(peak?.errors)})`);
    t.equal(s.log?.errors, 0, `${key}: Lanyard logged no errors (${s.log?.samples.join(' ; ')})`);
    t.equal(s.log?.serverErrors, 0, `${key}: Lanyard answered no 5xx`);
  }
  t.ok(r.ratios.length > 0, 'computes the ratios');
  const signIn = r.targets.sqlite?.signIn;
  const signInRatio = r.ratios.find((x) => x.name.startsWith('password sign-in ÷ argon2id'));
  t.ok(signIn && signInRatio?.value !== undefined && Math.abs(signInRatio.value - signIn.rate / ((signIn.argon2Around.before + signIn.argon2Around.after) / 2)) < 1e-9,
    'the sign-in ratio is against the argon2id rate measured around its phase');
  t.match(run.stdout, /argon2id verify, \d+ at once: just before → after the sign-ins/, 'prints that rate beside the sign-ins');
  const exchange = r.targets.sqlite?.exchange;
  const bareExchange = r.targets.bare?.exchange;
  t.ok(fitsCores(exchange?.generatorCpuMsPerOp, exchange?.rate), 'the load generator\'s own CPU per exchange is measured, within what the cores hold');
  const info = (name: string) => r.ratios.find((x) => x.name.includes(name))?.value;
  const close = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1e-9;
  const signingMs = (r.machine.cores * 1000) / (r.limits?.rsaSignaturesPerSecond ?? NaN);
  const ceilingRate = (r.machine.cores * 1000) / (signingMs + (exchange?.generatorCpuMsPerOp ?? NaN));
  t.ok(close(info('the ceiling: signing and the load generator only'), ceilingRate / (r.limits?.rsaSignaturesPerSecond ?? NaN)),
    'the exchange ceiling counts one signature and the generator\'s CPU per exchange, on every core');
  t.ok(close(info('that ceiling ÷ bare exchange'), ceilingRate / (bareExchange?.rate ?? NaN)), 'and is compared with bare\'s exchange');
  if (process.platform === 'linux') {
    t.ok(exchange?.cpuMsPerOp !== undefined && bareExchange?.cpuMsPerOp !== undefined, 'on Linux, each server\'s CPU per exchange is measured');
    t.ok(close(info('besides its signature, ms: Lanyard'), (exchange?.cpuMsPerOp ?? NaN) - (r.limits?.rsaSignatureCpuMs ?? NaN))
      && close(info('besides its signature, ms: bare'), (bareExchange?.cpuMsPerOp ?? NaN) - (r.limits?.rsaTwoPrimeSignatureCpuMs ?? NaN)),
    'each server\'s CPU besides its signature is less the CPU its own key\'s signature costs');
    t.match(run.stdout, /CPU [\d.]+ ms\/op \(generator [\d.]+\)/, 'prints the generator\'s CPU beside the server\'s');
  } else {
    t.match(run.stdout, /CPU: generator [\d.]+ ms\/op/, 'prints the generator\'s CPU alone where the server\'s is not measured');
  }

  // Each scenario on every server back to back (bench/suite.ts), so that the ratios between servers are
  // taken between measurements seconds apart, not minutes.
  const order = r.phases.map((p) => p.scenario);
  const scenarios = [...new Set(order)];
  t.same(scenarios, ['exchange', 'refresh', 'discovery', 'jwks', 'sign-in', 'storm', 'morning-peak', 'roster-import'], 'every scenario ran, in the suite\'s order');
  for (const k of ['sqlite', 'redis'] as const) {
    const ri = r.targets[k]?.rosterImport;
    t.ok(ri && ri.first.applied && ri.first.counts.users?.added === ri.size.users, `${k}: the roster import added every generated user`);
    t.ok(ri && !ri.again.applied && ri.again.counts.users?.unchanged === ri.size.users, `${k}: the same roster again wrote nothing`);
    t.ok(ri && ri.first.peakRssMiB > 0, `${k}: the import's resident size was sampled`);
  }
  t.match(run.stdout, /roster import: 80 users/, 'prints the roster import row');
  t.same(order, scenarios.flatMap((s) => order.filter((x) => x === s)), 'each scenario measured on every server before the next scenario began');
  t.same(r.phases.filter((p) => p.scenario === 'exchange').map((p) => p.target), ['bare', 'sqlite', 'audit-off', ...servers.slice(2)],
    'the exchange on each server in turn: bare, SQLite, SQLite with the audit trail off, Redis');
  const off = r.targets['audit-off'];
  clean('audit trail off: exchange', off?.exchange);
  clean('audit trail off: sign-in', off?.signIn);
  t.same([...new Set(r.phases.filter((p) => p.target === 'audit-off').map((p) => p.scenario))], ['exchange', 'sign-in'], 'with the audit trail off: the exchange and the sign-in only');
  t.equal(off?.log?.errors, 0, 'audit trail off: Lanyard logged no errors');
  const trail = r.ratios.filter((x) => x.name.includes('audit trail on ÷ off'));
  t.same(trail.map((x) => x.goal), ['≤ 1.05', '≤ 1.05'], 'the trail\'s cost: CPU per sign-in and per exchange, on ÷ off, against 5 %');
  if (process.platform === 'linux') t.ok(trail.every((x) => x.value !== undefined && x.value > 0), 'each computed');
  t.ok(r.ratios.some((x) => x.name.includes('sign-ins per second: on ÷ off') && x.value !== undefined), 'the rates beside them');
  t.match(run.stdout, /audit trail on ÷ off/, 'and printed');
  t.ok(r.phases.every((p, i) => i === 0 || p.startSeconds >= r.phases[i - 1]!.startSeconds + r.phases[i - 1]!.seconds - 0.1),
    'one phase at a time, in that order');
  t.ok(r.phases.every((p) => p.settledSeconds <= 3.5), 'each waited at most about 3 s for the other servers to be quiet');
  if (process.platform === 'linux') {
    t.ok(r.phases.every((p) => p.idleServersCpuMs !== undefined && p.idleServersCpuMs >= 0), 'what the idle servers spent is measured in each phase');
    t.ok(servers.every((k) => r.targets[k]?.idleServersCpuPercent !== undefined), 'and summed for each server');
    t.match(run.stdout, /CPU of the other servers, idle, while this one was measured\s*\|\s*[\d.]+ % of a core/, 'and printed');
  }

  t.ok(r.processes.some((p) => p.name.startsWith('lanyard')), 'records the processes it started');
  t.same(r.leftovers, [], 'reports nothing left running');
  t.same(r.processes.filter((p) => groupAlive(p.pid)), [], 'no process group it started is still alive');
});
