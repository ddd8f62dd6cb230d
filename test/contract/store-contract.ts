import type { Test } from 'tap';
import { accountSessionsContract } from './account-sessions.js';
import { appRequestsContract } from './app-requests.js';
import { auditContract } from './audit.js';
import { badgesContract } from './badges.js';
import { classLinksContract } from './class-links.js';
import { clientsContract } from './clients.js';
import { configRevisionsContract } from './config-revisions.js';
import { connectionsContract } from './connections.js';
import { countersContract } from './counters.js';
import { developersContract } from './developers.js';
import { directoryContract } from './directory.js';
import { freshStores, type OpenStore } from './harness.js';
import { helpCodesContract } from './help-codes.js';
import { identityContract } from './identity.js';
import { keysContract } from './keys.js';
import { lifecycleContract } from './lifecycle.js';
import { locksContract } from './locks.js';
import { logosContract } from './logos.js';
import { oidcRecordsContract } from './oidc-records.js';
import { rosterContract } from './roster.js';
import { rosterReadsContract } from './roster-reads.js';
import { settingsContract } from './settings.js';
import { staffContract } from './staff.js';
import { transferContract } from './transfer.js';

export type { OpenedStore, OpenStore } from './harness.js';

/** One suite per domain (as hydra's per-manager tests), each run against the backend `open` gives. */
const DOMAINS = {
  'protocol records': oidcRecordsContract,
  directory: directoryContract,
  'account sessions': accountSessionsContract,
  clients: clientsContract,
  logos: logosContract,
  'config revisions': configRevisionsContract,
  connections: connectionsContract,
  'app requests': appRequestsContract,
  developers: developersContract,
  keys: keysContract,
  badges: badgesContract,
  roster: rosterContract,
  'help codes': helpCodesContract,
  'class links': classLinksContract,
  staff: staffContract,
  'roster reads': rosterReadsContract,
  audit: auditContract,
  counters: countersContract,
  locks: locksContract,
  settings: settingsContract,
  'store identity': identityContract,
  transfer: transferContract,
  lifecycle: lifecycleContract,
};

export function storeContract(t: Test, name: string, open: OpenStore): void {
  const fresh = freshStores(open);
  for (const [domain, contract] of Object.entries(DOMAINS)) {
    t.test(`${name}: ${domain} contract`, async (t) => contract(t, fresh));
  }
}
