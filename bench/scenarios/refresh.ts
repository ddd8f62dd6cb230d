import { refresh, type Tokens } from '../flows/tokens.js';
import { type Figure, runLoad } from '../load.js';
import type { Target } from '../target.js';

/** Refresh: each refresh token from the exchange scenario once (rotation retires it), timed. */
export async function measureRefresh(t: Target, tokens: Tokens[], o: { seconds: number; concurrency: number }): Promise<{ figure: Figure; tokens: Tokens[] }> {
  const fresh: Tokens[] = [];
  const figure = await runLoad({
    items: tokens,
    concurrency: o.concurrency,
    maxSeconds: o.seconds,
    run: async (tok) => { fresh.push(await refresh(t, tok.refreshToken)); },
  });
  return { figure, tokens: fresh };
}
