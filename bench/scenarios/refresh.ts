import { withServerCpu } from '../cpu.js';
import { refresh, type Tokens } from '../flows/tokens.js';
import { type Figure, runLoad } from '../load.js';
import type { Target } from '../target.js';

/** Refresh: each refresh token from the exchange scenario once (rotation retires it), timed. */
export function measureRefresh(t: Target, tokens: Tokens[], o: { seconds: number; concurrency: number }): Promise<Figure> {
  return withServerCpu(t.group, () => runLoad({ items: tokens, concurrency: o.concurrency, maxSeconds: o.seconds, run: (tok) => refresh(t, tok.refreshToken) }));
}
