import { ROUTES } from '../src/routes.js';
import type { BenchSetup } from './bench-config.js';
import type { Client, CookieJar } from './http.js';

/** Where a server keeps its endpoints: Lanyard's (src/routes.ts) or oidc-provider's defaults. */
export interface Paths {
  authorize: string;
  token: string;
  userinfo: string;
  discovery: string;
  jwks: string;
}

export const LANYARD_PATHS: Paths = {
  authorize: ROUTES.authorization,
  token: ROUTES.token,
  userinfo: ROUTES.userinfo,
  discovery: ROUTES.discovery,
  jwks: ROUTES.jwks,
};

export const BARE_PATHS: Paths = {
  authorize: '/auth',
  token: '/token',
  userinfo: '/me',
  discovery: '/.well-known/openid-configuration',
  jwks: '/jwks',
};

/** `audit-off`: Lanyard on SQLite with the audit trail off (`audit.enabled: false`), to show what writing it costs. */
export type TargetKey = 'sqlite' | 'redis' | 'bare' | 'audit-off';

/** Each server's name in the progress lines, the JSON and the table's columns (in this order). */
export const LABELS: Record<TargetKey, string> = {
  sqlite: 'Lanyard (SQLite)', redis: 'Lanyard (Redis)', bare: 'bare oidc-provider', 'audit-off': 'Lanyard (SQLite), audit trail off',
};

/** One server under test, as the scenarios see it. */
export interface Target {
  /** Lanyard (sqlite, redis, audit-off) has sign-in forms and argon2; bare oidc-provider signs anyone in at once. */
  key: TargetKey;
  label: string;
  /** Its connections (and origin). */
  http: Client;
  /** The process group of the server (Lanyard's primary and workers), whose CPU time the scenarios count. */
  group: number | undefined;
  setup: BenchSetup;
  paths: Paths;
  /**
   * A new browser that has signed in (untimed preparation for code collection), with the code that
   * sign-in produced. `i` picks the user.
   */
  newSession(i: number): Promise<{ jar: CookieJar; code: string }>;
}
