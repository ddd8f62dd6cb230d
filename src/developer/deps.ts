import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../adapters/store.js';
import type { LoginThrottle } from '../accounts/login-throttle.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { LogoFetcher } from '../clients/logo-fetcher.js';
import type { Clock } from '../clock.js';
import type { DeveloperSignup } from '../config/schema.js';
import type { DeviceCookies } from '../accounts/device-cookies.js';
import type { ProviderHost } from '../provider/provider-host.js';

/** What the developer area (pages, JSON API, services) is built from: handed down by buildApp. */
export interface DeveloperDeps {
  store: Store;
  clock: Clock;
  clients: ClientRegistry;
  host: ProviderHost;
  /** Signs CSRF tokens and cookies; the first signs, all verify (docs/security.md → Cookie keys). */
  cookieKeys: readonly string[];
  /** Encrypts TOTP secrets at rest (the key that encrypts signing keys). */
  keyEncryptionKey: Buffer;
  /** The guessing protection of every password sign-in. */
  throttle: LoginThrottle;
  /** The browser's device cookie: a guessing protection source, as on the sign-in screens. */
  devices: DeviceCookies;
  issuer: string;
  /** `invite` (default): accounts only by `lanyard developers invite`; `open`: anyone may sign up. */
  signup: DeveloperSignup;
  /** Cookies get `Secure` when the issuer is https. */
  secureCookies: boolean;
  log: FastifyBaseLogger;
  /** Fetches an app's logo when it is set (docs/security.md → App logos); tests give one that reaches loopback. */
  logos: LogoFetcher;
}
