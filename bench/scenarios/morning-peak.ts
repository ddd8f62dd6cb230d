import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { lanyardSignIn, pupil } from '../flows/lanyard-sign-in.js';
import { exchange } from '../flows/tokens.js';
import { Client, CookieJar, FlowError } from '../http.js';
import { Recorder } from '../load.js';
import type { Target } from '../target.js';
import { type GeneratorLoad, watchGenerator } from '../generator-load.js';

export interface PeakResult {
  pupils: number;
  windowSeconds: number;
  /** Pupils per second arriving (pupils / window). */
  offeredRate: number;
  /** Pupils signed in with tokens per second, from the first arrival to the last one done. */
  rate: number;
  ok: number;
  /** Pupils still waiting at the cut-off (the window plus CUT_OFF_SECONDS): `errors.unfinished`. */
  unfinished: number;
  /** Each pupil's whole sign-in and exchange, in ms. */
  p50: number;
  p95: number;
  p99: number;
  /** Seconds from the first arrival until the last pupil was done. */
  seconds: number;
  /** Failed pupils by HTTP status (or network error), and `unfinished`. */
  errors: Record<string, number>;
  /** 429 or 503 with Retry-After: the expected answer above saturation. */
  overloadWithRetryAfter: number;
  /** Every other failure, 5xx included: none is expected. */
  unexpected: number;
  /** 5xx answers other than 503 with Retry-After. */
  serverErrors: number;
  /** The load generator itself (this process): CPU in % of one core, event-loop delay p99 in ms. */
  generator: GeneratorLoad;
}

/**
 * How long after the window the bench still waits for pupils. Past it, a pupil still waiting gives up (their
 * requests are aborted) and counts as `unfinished`: a server that queues without bound would otherwise hold
 * the run for minutes, and a child does not wait that long either.
 */
export const CUT_OFF_SECONDS = 20;

/**
 * The morning peak (issue §1): N pupils of one school each sign in by emoji password from their own device
 * (a cookie jar each, so a new device each) and exchange a code. Arrivals are paced evenly over the window,
 * whatever the server's speed (an open model: a slow server sees pupils pile up, as a school would), over
 * up to a connection per pupil, so that the server, not the load generator, decides what waits.
 */
export async function measureMorningPeak(t: Target, o: { pupils: number; seconds: number; connections: number }): Promise<PeakResult> {
  const giveUp = new AbortController();
  const { signal } = giveUp;
  const http = new Client(t.http.origin, Math.min(o.connections, o.pupils), signal);
  const target: Target = { ...t, http };
  const rec = new Recorder();
  let overloadWithRetryAfter = 0;
  let unexpected = 0;
  let serverErrors = 0;
  const watch = watchGenerator();
  const start = performance.now();
  let lastDone = start;
  const onePupil = async (i: number) => {
    const t0 = performance.now();
    try {
      const code = await lanyardSignIn(target, new CookieJar(), pupil(t, i));
      await exchange(target, code);
      rec.ok(performance.now() - t0);
    } catch (err) {
      if (signal.aborted) {
        rec.fail(err, 'unfinished');
        unexpected += 1;
        return;
      }
      rec.fail(err);
      const status = err instanceof FlowError ? err.status : 0;
      if ((status === 429 || status === 503) && err instanceof FlowError && err.retryAfter) overloadWithRetryAfter += 1;
      else {
        unexpected += 1;
        if (status >= 500) serverErrors += 1;
      }
    } finally {
      if (!signal.aborted) lastDone = Math.max(lastDone, performance.now());
    }
  };
  const running: Promise<void>[] = [];
  const gapMs = (o.seconds * 1000) / o.pupils;
  for (let i = 0; i < o.pupils; i += 1) {
    const wait = start + i * gapMs - performance.now();
    if (wait > 1) await sleep(wait);
    running.push(onePupil(i));
  }
  const cutOff = setTimeout(() => giveUp.abort(), Math.max(0, start + (o.seconds + CUT_OFF_SECONDS) * 1000 - performance.now()));
  await Promise.all(running);
  clearTimeout(cutOff);
  const generator = watch.stop();
  await http.close();
  const figure = rec.figure((lastDone - start) / 1000);
  return {
    pupils: o.pupils, windowSeconds: o.seconds, offeredRate: o.pupils / o.seconds, ...figure,
    overloadWithRetryAfter, unexpected, serverErrors, unfinished: figure.errors.unfinished ?? 0, generator,
  };
}
