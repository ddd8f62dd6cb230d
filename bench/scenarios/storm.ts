import { setTimeout as sleep } from 'node:timers/promises';
import { collectCodes } from '../flows/codes.js';
import { exchange } from '../flows/tokens.js';
import { type Figure, runLoad } from '../load.js';
import type { Target } from '../target.js';
import { codesFor } from './exchange.js';
import { passwordSignInAndExchange } from './sign-in.js';

export interface StormResult {
  /** Code exchanges at a fixed, modest concurrency with nothing else going on. */
  alone: Figure;
  /** The same, while many password sign-ins (argon2) run at once. */
  during: Figure;
  /** The sign-ins of the storm (each one end to end, with its own exchange). */
  signIns: Figure;
  /** during.p99 / alone.p99: argon2 must not starve signing (target ≤ 2). */
  p99Ratio: number;
}

/**
 * Exchange latency alone and during a sign-in storm. Both phases use codes collected beforehand (first
 * those the exchange scenario left over), sized from the exchange rate measured earlier. The storm starts
 * half a second before the measured exchanges, so that they meet it at full strength.
 */
export async function measureStorm(
  t: Target,
  o: { seconds: number; exchangeConcurrency: number; signInConcurrency: number; maxCodes: number; exchangeRate: number; spareCodes: string[] },
): Promise<StormResult> {
  const perPhase = codesFor(o.exchangeRate, o.seconds, o.exchangeConcurrency * 2, o.maxCodes / 2);
  const spare = o.spareCodes.slice(0, perPhase * 2);
  const codes = [...spare, ...await collectCodes(t, perPhase * 2 - spare.length)];
  const run = async (code: string) => { await exchange(t, code); };
  const alone = await runLoad({ items: codes.slice(0, perPhase), concurrency: o.exchangeConcurrency, maxSeconds: o.seconds, run });
  let calm = false;
  const storm = runLoad({
    concurrency: o.signInConcurrency, maxSeconds: o.seconds + 60, stop: () => calm,
    run: () => passwordSignInAndExchange(t),
  });
  await sleep(500);
  const during = await runLoad({ items: codes.slice(perPhase), concurrency: o.exchangeConcurrency, maxSeconds: o.seconds, run });
  calm = true;
  const signIns = await storm;
  return { alone, during, signIns, p99Ratio: alone.p99 > 0 ? during.p99 / alone.p99 : 0 };
}
