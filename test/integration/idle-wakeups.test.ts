import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { EVENT_LOOP_SAMPLE_MS } from '../../src/metrics/metrics.js';
import { serveWorkers } from '../helpers/workers.js';

/**
 * An idle Lanyard barely wakes up (docs/performance.md, observability that costs little): its metrics sample the
 * event loop's delay every EVENT_LOOP_SAMPLE_MS, not prom-client's default 10 ms, which woke each worker's
 * main thread about 105 times a second for nothing (16 with 100 ms). Counted by the kernel: a main thread's voluntary context switches
 * (/proc/PID/status), each a sleep that something ended.
 */

/** Most wakeups a second an idle worker's main thread may have: the delay sampling's, a log flush's, and room. */
const MOST_PER_SECOND = 40;
const WINDOW_MS = 3_000;

const voluntarySwitches = (pid: number): number => {
  const m = /^voluntary_ctxt_switches:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no voluntary_ctxt_switches in /proc/${pid}/status`);
  return Number(m[1]);
};

t.test('an idle worker wakes at most a few dozen times a second, metrics on', async (t) => {
  t.equal(process.platform, 'linux', 'counted through /proc (Linux, as CI)');
  t.ok(1000 / EVENT_LOOP_SAMPLE_MS <= MOST_PER_SECOND / 2, 'the delay sampling alone leaves room for the rest');
  const served = await serveWorkers(t, 2);
  t.equal(served.workers.length, 2, 'two workers');
  const metrics = await fetch(`${served.url}/metrics`);
  t.match(await metrics.text(), /nodejs_eventloop_lag_p99_seconds/, 'the event loop delay is still measured');
  await sleep(1_500); // startup's own work (V8's compilations, the first key checks) done
  const before = served.workers.map(voluntarySwitches);
  await sleep(WINDOW_MS);
  const perSecond = served.workers.map((pid, i) => ((voluntarySwitches(pid) - before[i]!) * 1000) / WINDOW_MS);
  for (const [i, rate] of perSecond.entries()) {
    t.ok(rate <= MOST_PER_SECOND, `worker ${i + 1}: ${rate.toFixed(0)} wakeups a second (at most ${MOST_PER_SECOND})`);
  }
});
