import type { BenchSetup } from './bench-config.js';
import { bareSignIn } from './flows/bare-sign-in.js';
import { lanyardSignIn, staffMember } from './flows/lanyard-sign-in.js';
import { Client, CookieJar } from './http.js';
import { BARE_PATHS, LABELS, LANYARD_PATHS, type Target, type TargetKey } from './target.js';

/** Keep-alive connections per server: more than any scenario's concurrency except the morning peak's. */
const CONNECTIONS = 128;

/** The server at `origin` (Lanyard on a store, or bare oidc-provider; its process group `group`) as the scenarios see it. */
export function target(key: TargetKey, origin: string, setup: BenchSetup, group: number | undefined, label = LABELS[key]): Target {
  const bare = key === 'bare';
  const t: Target = {
    key, label, http: new Client(origin, CONNECTIONS), group, setup, paths: bare ? BARE_PATHS : LANYARD_PATHS,
    async newSession(i) {
      const jar = new CookieJar();
      return { jar, code: bare ? await bareSignIn(t, jar) : await lanyardSignIn(t, jar, staffMember(t, i)) };
    },
  };
  return t;
}
