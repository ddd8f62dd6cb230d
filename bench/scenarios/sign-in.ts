import { withServerCpu } from '../cpu.js';
import { lanyardSignIn, staffMember } from '../flows/lanyard-sign-in.js';
import { exchange } from '../flows/tokens.js';
import { CookieJar } from '../http.js';
import { type Figure, runLoad } from '../load.js';
import type { Target } from '../target.js';

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

/** Full password sign-ins at a few times the concurrency Lanyard allows argon2, after a short warm-up. */
export async function measureSignIn(t: Target, o: { seconds: number; concurrency: number }): Promise<Figure> {
  const run = () => passwordSignInAndExchange(t);
  await runLoad({ concurrency: o.concurrency, maxCount: o.concurrency, maxSeconds: 30, run });
  return withServerCpu(t.group, () => runLoad({ concurrency: o.concurrency, maxSeconds: o.seconds, run }));
}
