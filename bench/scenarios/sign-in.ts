import { groupCpuMs, withServerCpu } from '../cpu.js';
import { lanyardSignIn, staffMember } from '../flows/lanyard-sign-in.js';
import { exchange } from '../flows/tokens.js';
import { CookieJar } from '../http.js';
import { measureArgon2Now } from '../limits.js';
import { type Figure, runLoad } from '../load.js';
import type { Target } from '../target.js';

/** What the password sign-in scenario measured (below). */
export interface SignInFigure extends Figure {
  /**
   * argon2id verifications per second at the concurrency Lanyard allows itself, measured in a process of
   * its own just before and just after the timed phase. A VM's speed drifts by several per cent over a
   * minute, so these, rather than the machine limits taken at the start of the run, are what the sign-in
   * rate is compared with. `serverCpuMs`: what Lanyard spent meanwhile, before and after (it should be
   * idle); `measurementCpuMs`: what the two measuring processes used, not another process's.
   */
  argon2Around: { before: number; after: number; serverCpuMs: [number | undefined, number | undefined]; measurementCpuMs: number };
}

/** The mean of the two argon2 rates around the sign-in phase. */
export const argon2AroundSignIn = (f: SignInFigure): number => (f.argon2Around.before + f.argon2Around.after) / 2;

/** The sign-in ratio (docs/performance.md): the sign-in rate ÷ the argon2 rate around its phase. */
export const signInRatio = (f: SignInFigure): number => f.rate / argon2AroundSignIn(f);

let next = 0;

/**
 * One full password sign-in from a new browser, end to end: authorize → the school's page → the password
 * form → POST (one argon2id verification) → back through the provider → code exchange. Members of staff
 * take turns, so that no two sign-ins at once are on one account (Lanyard serialises those on purpose).
 */
export async function passwordSignInAndExchange(t: Target): Promise<void> {
  const jar = new CookieJar();
  const code = await lanyardSignIn(t, jar, staffMember(t, next++));
  await exchange(t, code);
}

export interface SignInOptions {
  seconds: number;
  concurrency: number;
  warmUp: number;
  argon2Seconds: number;
  /** argon2 verifications Lanyard runs at once in all its processes together. */
  argon2Concurrency: number;
}

/**
 * Full password sign-ins at a few times the concurrency Lanyard allows argon2, after a warm-up, with the
 * machine's argon2 rate measured on either side of the timed phase.
 */
export async function measureSignIn(t: Target, o: SignInOptions): Promise<SignInFigure> {
  const run = () => passwordSignInAndExchange(t);
  await runLoad({ concurrency: o.concurrency, maxCount: Math.max(o.concurrency, o.warmUp), maxSeconds: 30, run });
  const argon2 = () => groupCpuMs(t.group, () => measureArgon2Now(o.argon2Seconds, o.argon2Concurrency));
  const [before, serverBefore] = await argon2();
  const figure = await withServerCpu(t.group, () => runLoad({ concurrency: o.concurrency, maxSeconds: o.seconds, run }));
  const [after, serverAfter] = await argon2();
  return {
    ...figure,
    argon2Around: {
      before: before.argon2VerifyAtConcurrency, after: after.argon2VerifyAtConcurrency,
      serverCpuMs: [serverBefore, serverAfter], measurementCpuMs: before.cpuMs + after.cpuMs,
    },
  };
}
