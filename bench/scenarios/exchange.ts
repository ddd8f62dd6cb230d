import { withServerCpu } from '../cpu.js';
import { collectCodes } from '../flows/codes.js';
import { exchange, type Tokens } from '../flows/tokens.js';
import { type Figure, runLoad } from '../load.js';
import type { Target } from '../target.js';

export interface ExchangeOptions {
  /** Codes exchanged first, untimed: the warm-up, which also estimates how many codes the run needs. */
  probeCodes: number;
  maxCodes: number;
  seconds: number;
  concurrency: number;
}

/** Codes enough for `seconds` at `rate`, with a margin, within [min, max]. */
export const codesFor = (rate: number, seconds: number, min: number, max: number): number =>
  Math.max(min, Math.min(max, Math.ceil(rate * seconds * 1.15)));

/**
 * Code exchange (`openid`: an ID token each): codes are collected first, untimed; a first batch is exchanged
 * to warm up and to size the second, which is exchanged as fast as the server answers at the given
 * concurrency. Returns the figure, every token set (the refresh scenario uses their refresh tokens) and the
 * codes left over when time ran out (still valid: the storm uses them).
 */
export async function measureExchange(t: Target, o: ExchangeOptions): Promise<{ figure: Figure; tokens: Tokens[]; spareCodes: string[] }> {
  const tokens: Tokens[] = [];
  const run = async (code: string) => { tokens.push(await exchange(t, code)); };
  const probe = await runLoad({ items: await collectCodes(t, o.probeCodes), concurrency: o.concurrency, maxSeconds: 60, run });
  const codes = await collectCodes(t, codesFor(probe.rate, o.seconds, o.concurrency, o.maxCodes));
  let used = codes.length;
  const figure = await withServerCpu(t.group, () => runLoad({ items: codes, concurrency: o.concurrency, maxSeconds: o.seconds, run, started: (n) => { used = n; } }));
  return { figure, tokens, spareCodes: codes.slice(used) };
}
