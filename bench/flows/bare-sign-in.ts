import type { CookieJar } from '../http.js';
import type { Target } from '../target.js';
import { atCallback, authorizePath, codeFrom, nextPath } from './authorize.js';

/**
 * Bare oidc-provider's sign-in: authorize → its interaction (bench/bare-provider.ts signs in and grants at
 * once) → resume → the app's redirect URI. Returns the code.
 */
export async function bareSignIn(t: Target, jar: CookieJar): Promise<string> {
  let r = await t.http.request({ path: authorizePath(t), jar });
  for (let hops = 0; hops < 5 && !atCallback(r, t); hops += 1) {
    r = await t.http.request({ path: nextPath(r, `hop ${hops + 1}`), jar });
  }
  return codeFrom(r, t, 'bare sign-in');
}
