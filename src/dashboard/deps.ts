import type { Store } from '../../adapters/store.js';
import type { ClassLinkService } from '../accounts/class-links.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { Clock } from '../clock.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { ProviderHost } from '../provider/provider-host.js';

/** What the dashboard's routes need (src/dashboard/index.ts). */
export interface DashboardDeps {
  host: ProviderHost;
  store: Store;
  clients: ClientRegistry;
  /** Sign the dashboard's form tokens (the first key signs, every key verifies). */
  cookieKeys: readonly string[];
  issuer: string;
  /** Launches go into the school's audit trail. */
  audit: AuditRecorder;
  clock: Clock;
  /** The class-link entry (/class) opens a link a teacher shows (src/accounts/class-links.ts). */
  classLinks: ClassLinkService;
}
