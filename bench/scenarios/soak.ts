import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { authorizePath, codeFrom, nextPath } from '../flows/authorize.js';
import { lanyardSignIn, pupil, staffMember } from '../flows/lanyard-sign-in.js';
import { exchange, refresh, type Tokens, userinfo } from '../flows/tokens.js';
import { CookieJar, errorKey } from '../http.js';
import { treeRss } from '../rss.js';
import type { Target } from '../target.js';

export interface SoakResult {
  minutes: number;
  /** Resident size of Lanyard's processes (parent and workers), MiB. */
  rss: { startMiB: number; endMiB: number; maxMiB: number; driftPercent: number; processes: number; samples: { atSeconds: number; mib: number; eachMiB: number[]; pids: number[] }[] };
  /** Lanyard processes that appeared after the first sample (a worker replaced, say), with when. */
  newProcesses: { atSeconds: number; pid: number }[];
  /** Operations done, by kind, and failures by kind and status. */
  operations: Record<string, number>;
  errors: Record<string, number>;
}

/** What the mixed traffic keeps between operations: signed-in browsers and live token sets (bounded). */
interface Live { sessions: CookieJar[]; tokens: Tokens[] }
const KEEP = 200;
const keep = <T>(list: T[], item: T) => { list.push(item); if (list.length > KEEP) list.shift(); };

/**
 * The operations of the mix, with their weights: sign-ins (emoji pupils and password staff) that exchange
 * their code, new codes from live sessions, refreshes, userinfo calls, and sign-ins abandoned after the form
 * was shown (each leaves an interaction in the store until it expires).
 */
function mix(t: Target, live: Live, n: () => number) {
  const signIn = async (who: ReturnType<typeof pupil>) => {
    const jar = new CookieJar();
    const tokens = await exchange(t, await lanyardSignIn(t, jar, who));
    keep(live.sessions, jar);
    keep(live.tokens, tokens);
  };
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  return [
    { kind: 'emoji sign-in', weight: 2, run: () => signIn(pupil(t, n())) },
    { kind: 'password sign-in', weight: 1, run: () => signIn(staffMember(t, n())) },
    {
      kind: 'code from a session', weight: 4, run: async () => {
        const jar = pick(live.sessions);
        if (!jar) return signIn(pupil(t, n())); // nothing signed in yet
        keep(live.tokens, await exchange(t, codeFrom(await t.http.request({ path: authorizePath(t), jar }), t, 'authorize')));
      },
    },
    {
      kind: 'refresh', weight: 4, run: async () => {
        const i = Math.floor(Math.random() * live.tokens.length);
        const tokens = live.tokens[i];
        if (!tokens) return signIn(pupil(t, n()));
        live.tokens.splice(i, 1); // rotated: the old refresh token is spent
        keep(live.tokens, await refresh(t, tokens.refreshToken));
      },
    },
    {
      kind: 'userinfo', weight: 6, run: async () => {
        const tok = pick(live.tokens);
        return tok ? userinfo(t, tok.accessToken) : signIn(pupil(t, n()));
      },
    },
    {
      kind: 'abandoned sign-in', weight: 2, run: async () => {
        const jar = new CookieJar();
        const r = await t.http.request({ path: authorizePath(t, { organisation: t.setup.org }), jar });
        await t.http.request({ path: nextPath(r, 'authorize'), jar });
      },
    },
  ];
}

/**
 * Mixed traffic for `minutes` at a modest concurrency (the point is memory, not speed), sampling the
 * resident size of Lanyard's process tree every few seconds. The first samples, while caches and JIT
 * settle, are the warm-up; start is the first sample after it, drift is (end − start) / start.
 */
export async function soak(t: Target, rootPid: number, o: { minutes: number; concurrency: number; log: (line: string) => void }): Promise<SoakResult> {
  const live: Live = { sessions: [], tokens: [] };
  let n = 0;
  const ops = mix(t, live, () => n++);
  const total = ops.reduce((a, op) => a + op.weight, 0);
  const operations: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const durationMs = o.minutes * 60_000;
  const warmUpMs = Math.min(60_000, durationMs * 0.1);
  const sampleMs = Math.max(1000, Math.min(5000, durationMs / 60));
  const start = performance.now();
  const end = start + durationMs;
  let done = false;

  const loop = async () => {
    while (performance.now() < end) {
      let r = Math.random() * total;
      const op = ops.find((x) => (r -= x.weight) < 0) ?? ops[0]!;
      try {
        await op.run();
        operations[op.kind] = (operations[op.kind] ?? 0) + 1;
      } catch (err) {
        const key = `${op.kind}: ${errorKey(err)}`;
        errors[key] = (errors[key] ?? 0) + 1;
      }
    }
  };
  const samples: { atSeconds: number; mib: number; eachMiB: number[]; pids: number[] }[] = [];
  let processes = 0;
  const sampler = (async () => {
    while (!done) {
      const s = await treeRss(rootPid);
      processes = Math.max(processes, s.processes);
      const atSeconds = Math.round((performance.now() - start) / 100) / 10;
      samples.push({ atSeconds, mib: s.mib, eachMiB: s.each, pids: s.pids }); // pids: a restarted worker shows
      if (samples.length % 12 === 0) o.log(`  soak ${atSeconds.toFixed(0)} s: RSS ${s.mib} MiB (${s.each.join(' + ')})`);
      await sleep(sampleMs);
    }
  })();
  await Promise.all(Array.from({ length: o.concurrency }, loop));
  done = true;
  await sampler;
  const last = await treeRss(rootPid);
  samples.push({ atSeconds: Math.round((performance.now() - start) / 100) / 10, mib: last.mib, eachMiB: last.each, pids: last.pids });

  const seen = new Set(samples[0]?.pids ?? []);
  const newProcesses: { atSeconds: number; pid: number }[] = [];
  for (const sample of samples) {
    for (const pid of sample.pids) if (!seen.has(pid)) { seen.add(pid); newProcesses.push({ atSeconds: sample.atSeconds, pid }); }
  }
  const settled = samples.filter((s) => s.atSeconds * 1000 >= warmUpMs);
  const after = settled.length ? settled : samples;
  const startMiB = after[0]!.mib;
  const endMiB = after[after.length - 1]!.mib;
  return {
    minutes: o.minutes,
    rss: {
      startMiB, endMiB, maxMiB: Math.max(...after.map((s) => s.mib)),
      driftPercent: Math.round(((endMiB - startMiB) / startMiB) * 1000) / 10, processes, samples,
    },
    newProcesses, operations, errors,
  };
}
