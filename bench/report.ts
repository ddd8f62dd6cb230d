import type { Figure } from './load.js';
import { type Results, type TargetResults } from './results.js';
import { signInRatio } from './scenarios/sign-in.js';
import { LABELS, type TargetKey } from './target.js';

/** The results as the table `npm run bench` prints: rates and latencies side by side, then the ratios. */

const num = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 10 ? n.toFixed(1) : n.toFixed(2));
/** A count of records, as people write it. */
const count = (n: number): string => n.toLocaleString('en-US');
const ms = (n: number): string => (n >= 100 ? String(Math.round(n)) : n.toFixed(1));
const errs = (errors: Record<string, number>): string => {
  const entries = Object.entries(errors);
  if (!entries.length) return '';
  const total = entries.reduce((a, [, n]) => a + n, 0);
  return ` · ${total} error${total === 1 ? '' : 's'} (${entries.map(([k, n]) => `${k}×${n}`).join(', ')})`;
};
const cpuMs = (v: number): string => (v >= 1 ? v.toFixed(2) : v.toFixed(3));
/**
 * The server's CPU per operation, and the load generator's (which shares the cores) in brackets; the
 * generator's alone where the server's is not known (off Linux).
 */
const cpu = (f: Figure): string => {
  const generator = f.generatorCpuMsPerOp === undefined ? undefined : `generator ${cpuMs(f.generatorCpuMsPerOp)}`;
  if (f.cpuMsPerOp === undefined) return generator ? ` · CPU: ${generator} ms/op` : '';
  return ` · CPU ${cpuMs(f.cpuMsPerOp)} ms/op${generator ? ` (${generator})` : ''}`;
};
/** The CPU one signature cost while the signing limit was measured (results from before it was kept have none). */
const eachCpu = (v: number | undefined): string => (v === undefined ? '' : ` · CPU ${cpuMs(v)} ms each`);
const rate = (f: Figure | undefined): string => (f ? `${num(f.rate)} /s · p50 ${ms(f.p50)} · p99 ${ms(f.p99)} ms${cpu(f)}${errs(f.errors)}` : '');

/** What Lanyard spent while the argon2 rate was measured around its sign-ins (it should be next to nothing). */
const idle = ([before, after]: [number | undefined, number | undefined]): string =>
  (before === undefined || after === undefined ? '' : ` · Lanyard meanwhile: ${before} + ${after} ms of CPU`);

const COLUMNS = Object.entries(LABELS) as [TargetKey, string][];

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

export function renderReport(r: Results): string {
  const t = (k: TargetKey): TargetResults | undefined => (r.targets[k]?.skipped ? undefined : r.targets[k]);
  const row = (name: string, cell: (x: TargetResults) => string, limit = ''): string[] =>
    [name, ...COLUMNS.map(([k]) => { const x = t(k); return x ? cell(x) : ''; }), limit];
  const L = r.limits;
  const peak = r.targets.sqlite?.morningPeak ?? r.targets.redis?.morningPeak;
  const ri = r.targets.sqlite?.rosterImport ?? r.targets.redis?.rosterImport;
  const rows: string[][] = [
    ['', ...COLUMNS.map(([k, label]) => (r.targets[k]?.skipped ? `${label}: skipped` : label)), 'machine limit'],
    row('RSA-4096 RS256 signatures, all cores: a four-prime key, like Lanyard\'s', () => '', L ? `${num(L.rsaSignaturesPerSecond)} /s${eachCpu(L.rsaSignatureCpuMs)}` : ''),
    row('… a two-prime key, the usual kind, like bare oidc-provider\'s', () => '', L ? `${num(L.rsaTwoPrimeSignaturesPerSecond)} /s${eachCpu(L.rsaTwoPrimeSignatureCpuMs)}` : ''),
    row('argon2id verify, one thread', () => '', L ? `${num(L.argon2VerifyOneThread)} /s` : ''),
    row(`argon2id verify, ${L?.argon2Concurrency ?? '?'} at once (what Lanyard allows)`, () => '', L ? `${num(L.argon2VerifyAtConcurrency)} /s` : ''),
    row('code exchange (openid, RSA-4096 ID token)', (x) => rate(x.exchange)),
    row('refresh (new access, refresh and ID token)', (x) => rate(x.refresh)),
    row('discovery', (x) => rate(x.discovery)),
    row('JWKS', (x) => rate(x.jwks), L?.documentCeiling ? `${num(L.documentCeiling.figure.rate)} /s: the same size from plain node:http, ${L.documentCeiling.processes} process${L.documentCeiling.processes === 1 ? '' : 'es'}` : ''),
    row('full password sign-in + exchange', (x) => rate(x.signIn)),
    row(`  argon2id verify, ${L?.argon2Concurrency ?? '?'} at once: just before → after the sign-ins`, (x) => (x.signIn
      ? `${num(x.signIn.argon2Around.before)} → ${num(x.signIn.argon2Around.after)} /s (sign-in ÷ their mean: ${signInRatio(x.signIn).toFixed(2)})${idle(x.signIn.argon2Around.serverCpuMs)}`
      : '')),
    row('exchange p99: alone → during sign-in storm', (x) => (x.storm
      ? `${ms(x.storm.alone.p99)} → ${ms(x.storm.during.p99)} ms (×${x.storm.p99Ratio.toFixed(2)})${errs({ ...x.storm.alone.errors, ...x.storm.during.errors, ...x.storm.signIns.errors })}`
      : '')),
    row('  sign-ins during the storm', (x) => (x.storm ? `${num(x.storm.signIns.rate)} /s · p99 ${ms(x.storm.signIns.p99)} ms` : '')),
    row(peak ? `morning peak: ${peak.pupils} pupils in ${peak.windowSeconds} s (${num(peak.offeredRate)} /s offered)` : 'morning peak', (x) => {
      const p = x.morningPeak;
      return p ? `${num(p.rate)} /s · p50 ${ms(p.p50)} · p95 ${ms(p.p95)} · p99 ${ms(p.p99)} ms · ${p.ok}/${p.pupils} ok${errs(p.errors)}` : '';
    }),
    row('  load generator meanwhile (CPU of one core · loop delay p99)', (x) => {
      const g = x.morningPeak?.generator;
      return g ? `${g.cpuPercent} % · ${ms(g.loopDelayP99)} ms` : '';
    }),
    row(ri ? `roster import: ${count(ri.size.users)} users, ${count(ri.size.classes)} classes, ${count(ri.size.enrollments)} enrolments` : 'roster import',
      (x) => (x.rosterImport ? `${x.rosterImport.first.seconds.toFixed(1)} s · peak ${x.rosterImport.first.peakRssMiB} MiB resident` : '')),
    row('  the same files again', (x) => {
      const a = x.rosterImport?.again;
      return a ? `${a.seconds.toFixed(1)} s · peak ${a.peakRssMiB} MiB · ${a.applied ? 'WROTE CHANGES' : 'nothing written'}` : '';
    }),
    row('startup (ready to serve)', (x) => (x.startupSeconds !== undefined ? `${x.startupSeconds.toFixed(1)} s` : '')),
    row('Lanyard processes at the end (resident size)', (x) => (x.processes ? `${x.processes.count}: ${x.processes.rssMiB} MiB (${x.processes.eachMiB.join(' + ')})` : '')),
    row('CPU used by other processes meanwhile', (x) => (x.othersCpuPercent !== undefined ? `${x.othersCpuPercent} %` : '')),
    row('CPU of the other servers, idle, while this one was measured', (x) => (x.idleServersCpuPercent !== undefined ? `${x.idleServersCpuPercent} % of a core` : '')),
    row('Lanyard metrics: scrapes · tokens issued · 5xx', (x) => {
      const m = x.metrics;
      if (!m) return '';
      if (!m.tokensIssued) return `not served (${m.failures} failed scrapes)`;
      const tokens = Object.values(m.tokensIssued).reduce((a, b) => a + b, 0);
      return `${m.scrapes} · ${tokens.toLocaleString('en-US')} · ${m.serverErrors ?? 0}`;
    }),
    row('Lanyard log: lines per request sent', (x) => (x.log ? `${(x.log.lines / Math.max(1, x.log.requestsSent)).toFixed(2)} (${x.log.warnings} warn, ${x.log.errors} error, ${x.log.serverErrors} 5xx${x.log.turnedAway ? `, ${x.log.turnedAway} sign-ins turned away: 503 + Retry-After` : ''})` : '')),
  ];
  const m = r.machine;
  const measured = Object.keys(r.targets).length > 0 || r.limits !== undefined;
  const out = [
    `Lanyard benchmark (${r.profile}) — ${r.finishedAt}, ${r.seconds.toFixed(0)} s`,
    `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}` +
      (m.busyBeforePercent !== undefined ? `; ${m.busyBeforePercent} % busy before the run` : ''),
    `Lanyard: LANYARD_WORKERS=${r.settings.workers}, JSON logs at info, metrics on their own port scraped every 15 s${L ? `, argon2id at once: ${L.argon2ConcurrencySource}` : ''}` +
      `${r.settings.redis ? `; Redis: ${r.settings.redis}` : ''}` +
      (Object.keys(r.settings.lanyardEnv).length ? `; ${Object.entries(r.settings.lanyardEnv).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''),
    ...(measured ? ['', table(rows)] : []),
    '',
    table([['target (docs/performance.md)', 'value', 'goal', ''], ...r.ratios.map((x) => [
      x.name, x.value === undefined ? 'n/a' : Number.isInteger(x.value) ? String(x.value) : x.value.toFixed(2), x.goal, x.met === undefined ? '' : x.met ? 'met' : 'NOT MET',
    ])]),
  ];
  if (r.soak) {
    const s = r.soak.rss;
    out.push('', `soak (${r.soak.store}, ${r.soak.minutes} min of mixed traffic): resident size of ${s.processes} Lanyard process(es) ` +
      `${s.startMiB} MiB after warm-up → ${s.endMiB} MiB at the end (max ${s.maxMiB} MiB), drift ${s.driftPercent} %` +
      ` (at the end: ${s.samples[s.samples.length - 1]?.eachMiB.join(' + ')} MiB)`,
    ...(r.soak.newProcesses.length ? [`  new Lanyard processes during the soak (a worker replaced?): ${r.soak.newProcesses.map((p) => `pid ${p.pid} at ${p.atSeconds} s`).join(', ')}`] : []),
    `  operations: ${Object.entries(r.soak.operations).map(([k, n]) => `${k} ${n}`).join(', ')}${errs(r.soak.errors)}`);
  }
  for (const note of r.settings.notes) out.push(`note: ${note}`);
  for (const warning of r.warnings) out.push(`WARNING: ${warning}`);
  return `${out.join('\n')}\n`;
}
