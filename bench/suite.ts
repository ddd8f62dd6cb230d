import { cpuSnapshot, othersPercent } from './cpu.js';
import type { Options, Scenario } from './options.js';
import { startedGroups } from './proc.js';
import type { TargetResults } from './results.js';
import { measureExchange } from './scenarios/exchange.js';
import { measureMorningPeak } from './scenarios/morning-peak.js';
import { measureRefresh } from './scenarios/refresh.js';
import { measureSignIn } from './scenarios/sign-in.js';
import { measureGet } from './scenarios/static-docs.js';
import { measureStorm } from './scenarios/storm.js';
import type { Target } from './target.js';

export interface SuiteContext {
  options: Options;
  /** argon2 verifications Lanyard runs at once in all its processes together. */
  argon2Total: number;
  log: (line: string) => void;
  warn: (line: string) => void;
}

const ourGroups = () => new Set(startedGroups.map((g) => g.pid));

/**
 * Every scenario against one server, in an order where each builds on the last: the exchange's tokens feed
 * the refresh, its rate sizes the storm's codes. Bare oidc-provider has no sign-in screens, so it stops
 * after the documents.
 */
export async function runSuite(t: Target, ctx: SuiteContext, into: TargetResults): Promise<void> {
  const p = ctx.options.profile;
  const only = ctx.options.only;
  const want = (s: Scenario) => only.size === 0 || only.has(s);
  const lanyard = t.key !== 'bare';
  const before = cpuSnapshot(ourGroups());
  let ex: Awaited<ReturnType<typeof measureExchange>> | undefined;
  if (want('exchange') || want('refresh') || (lanyard && want('storm'))) {
    ctx.log(`${t.label}: code exchange`);
    ex = await measureExchange(t, p.exchange);
    into.exchange = ex.figure;
  }
  if (ex && want('refresh')) {
    ctx.log(`${t.label}: refresh`);
    into.refresh = await measureRefresh(t, ex.tokens, p.refresh);
  }
  if (want('discovery')) {
    ctx.log(`${t.label}: discovery`);
    into.discovery = await measureGet(t, t.paths.discovery, p.docs);
  }
  if (want('jwks')) {
    ctx.log(`${t.label}: JWKS`);
    into.jwks = await measureGet(t, t.paths.jwks, p.docs);
  }
  if (lanyard && want('sign-in')) {
    const concurrency = Math.max(2, p.signIn.concurrencyPerArgon2 * ctx.argon2Total);
    ctx.log(`${t.label}: full password sign-in at concurrency ${concurrency}`);
    into.signIn = await measureSignIn(t, { ...p.signIn, concurrency, argon2Concurrency: ctx.argon2Total });
  }
  if (lanyard && ex && want('storm')) {
    ctx.log(`${t.label}: exchange latency alone and during a sign-in storm`);
    into.storm = await measureStorm(t, { ...p.storm, exchangeRate: ex.figure.rate, spareCodes: ex.spareCodes });
  }
  if (lanyard && want('morning-peak')) {
    const { pupils, seconds } = p.morningPeak;
    ctx.log(`${t.label}: morning peak, ${pupils} pupils over ${seconds} s`);
    const peak = await measureMorningPeak(t, p.morningPeak);
    into.morningPeak = peak;
    if (peak.serverErrors > 0) {
      ctx.warn(`!!! ${t.label}: ${peak.serverErrors} pupils in the morning peak got a 5xx other than 503 with Retry-After: ${JSON.stringify(peak.errors)} !!!`);
    } else if (peak.unexpected > 0) {
      ctx.warn(`${t.label}: ${peak.unexpected} pupils in the morning peak failed unexpectedly: ${JSON.stringify(peak.errors)}`);
    }
  }
  into.othersCpuPercent = othersPercent(before, cpuSnapshot(ourGroups()), into.signIn?.argon2Around.measurementCpuMs);
}
