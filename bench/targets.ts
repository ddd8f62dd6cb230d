import type { BareServer } from './bare-server.js';
import type { BenchSetup } from './bench-config.js';
import { bareSignIn } from './flows/bare-sign-in.js';
import { lanyardSignIn, staffMember } from './flows/lanyard-sign-in.js';
import { Client, CookieJar } from './http.js';
import type { LanyardServer } from './lanyard-server.js';
import { BARE_PATHS, LANYARD_PATHS, type Target } from './target.js';

/** Keep-alive connections per server: more than any scenario's concurrency except the morning peak's. */
const CONNECTIONS = 128;

export function lanyardTarget(key: 'sqlite' | 'redis', label: string, server: LanyardServer, setup: BenchSetup): Target {
  const t: Target = {
    key, label, origin: server.origin, http: new Client(server.origin, CONNECTIONS), setup, paths: LANYARD_PATHS, lanyard: true,
    async newSession(i) {
      const jar = new CookieJar();
      return { jar, code: await lanyardSignIn(t, jar, staffMember(t, i)) };
    },
  };
  return t;
}

export function bareTarget(server: BareServer, setup: BenchSetup): Target {
  const t: Target = {
    key: 'bare', label: 'bare oidc-provider', origin: server.origin, http: new Client(server.origin, CONNECTIONS), setup, paths: BARE_PATHS, lanyard: false,
    async newSession() {
      const jar = new CookieJar();
      return { jar, code: await bareSignIn(t, jar) };
    },
  };
  return t;
}
