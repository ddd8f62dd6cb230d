import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../adapters/store.js';
import type { DeviceCookies } from '../accounts/device-cookies.js';
import type { ClassLinkService } from '../accounts/class-links.js';
import type { HelpCodes } from '../accounts/help-codes.js';
import type { LoginThrottle } from '../accounts/login-throttle.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { ProviderHost } from '../provider/provider-host.js';

/** What the school console (pages, JSON API, services) is built from: handed down by buildApp. */
export interface SchoolDeps {
  config: Config;
  store: Store;
  clock: Clock;
  clients: ClientRegistry;
  host: ProviderHost;
  /** Signs CSRF tokens and cookies; the first signs, all verify (docs/security.md → Cookie keys). */
  cookieKeys: readonly string[];
  /** Encrypts second-factor secrets at rest (the key that encrypts signing keys). */
  keyEncryptionKey: Buffer;
  /** The guessing protection of every password and code the console checks. */
  throttle: LoginThrottle;
  devices: DeviceCookies;
  /** Every change the console makes is recorded here (docs/school-console.md → Audit and usage). */
  audit: AuditRecorder;
  /** Help codes staff give pupils (src/accounts/help-codes.ts). */
  helpCodes: HelpCodes;
  /** Class links teachers show their classes (src/accounts/class-links.ts). */
  classLinks: ClassLinkService;
  issuer: string;
  /** Cookies get `Secure` when the issuer is https. */
  secureCookies: boolean;
  log: FastifyBaseLogger;
}
