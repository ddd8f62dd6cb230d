import type { CookieJar } from '../http.js';
import { forEachBounded } from '../load.js';
import type { Target } from '../target.js';
import { authorizePath, codeFrom } from './authorize.js';

/**
 * How many codes one signed-in browser collects. Every code of a session belongs to its grant, so a
 * few dozen per session keeps each grant the size a busy user's would be (oidc-provider's in-memory adapter
 * and Lanyard's stores both index tokens by grant) instead of one grant with thousands of tokens.
 */
const CODES_PER_SESSION = 40;

/**
 * Codes for the exchange measurements, made without timing: a few browsers sign in (through the real
 * sign-in), then ask again and again with their session cookie, each time answered with a redirect to
 * the app carrying a fresh code.
 */
export async function collectCodes(t: Target, count: number, concurrency = 16): Promise<string[]> {
  if (count <= 0) return [];
  const sessions = Math.ceil(count / CODES_PER_SESSION); // at least 1, since count > 0
  const signedIn = await forEachBounded(Array.from({ length: sessions }, (_, i) => i), concurrency, (i) => t.newSession(i));
  const codes = signedIn.map((s) => s.code);
  const jars: CookieJar[] = signedIn.map((s) => s.jar);
  const more = Array.from({ length: count - codes.length }, (_, i) => jars[i % jars.length]!);
  const extra = await forEachBounded(more, concurrency, async (jar) => {
    const r = await t.http.request({ path: authorizePath(t), jar });
    return codeFrom(r, t, 'authorize with a session');
  });
  return [...codes, ...extra];
}
