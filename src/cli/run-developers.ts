import { storeDataDir } from '../../adapters/open-store.js';
import type { DeveloperAccount, Store } from '../../adapters/store.js';
import { LoginThrottle, throttlePolicy } from '../accounts/login-throttle.js';
import { tableLines } from './table.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { withConfiguredStore } from './configured-store.js';
import { type CommandOutput, STANDARD_OUTPUT } from './output.js';
import { commandLogger } from '../logging.js';
import { loadKeyEncryptionKey } from '../keys/key-encryption-key.js';
import { OPERATOR } from '../developer/actor.js';
import { DeveloperAccounts, normaliseEmail, THROTTLE_SCOPE } from '../developer/developer-accounts.js';
import { INVITATION_DAYS, Invitations } from '../developer/invitations.js';
import { showUnseen } from '../formats/unseen-characters.js';


/** `lanyard developers …` as the operator: the history says "Lanyard’s operator" (src/developer/actor.ts). */
function accountsOf(config: Config, store: Store, clock: Clock): DeveloperAccounts {
  const log = commandLogger();
  return new DeveloperAccounts({ store, clock, log, keyEncryptionKey: loadKeyEncryptionKey(config.keyEncryptionKey, storeDataDir(config.storeUrl)) });
}

async function developerByEmail(store: Store, email: string): Promise<DeveloperAccount> {
  const account = await store.findDeveloperByEmail(normaliseEmail(email));
  if (!account) throw new Error(`no developer account for ${showUnseen(normaliseEmail(email))}`);
  return account;
}

/**
 * `lanyard developers invite EMAIL`: prints a single-use link, valid 7 days, that creates the account for EMAIL.
 * Lanyard sends no email: the operator hands the link over. Only the link's hash is stored.
 */
export async function inviteDeveloperCommand(config: Config, clock: Clock, email: string, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const issued = await new Invitations({ store, clock, issuer: config.issuer }).invite(email, OPERATOR);
    io.out(`invitation for ${issued.email} (works once, valid ${INVITATION_DAYS} days, until ${issued.expiresAt.toISOString()}):`);
    io.out(`  ${issued.link}`);
    io.out('Lanyard sends no email: give this link to the developer yourself, privately (it creates their account)');
  });
}

interface DeveloperListing {
  id: string;
  email: string;
  display_name: string;
  two_step: boolean;
  recovery_codes_left: number;
  apps: number;
  created_at: string;
}

/** `lanyard developers list [--json]`: every developer account, never a secret or a hash. */
export async function listDevelopersCommand(config: Config, clock: Clock, o: { json?: boolean | undefined }, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const listing: DeveloperListing[] = [];
    for (const d of await store.listDevelopers()) {
      listing.push({
        id: d.id, email: d.email, display_name: d.displayName, two_step: !!d.totpSecret,
        recovery_codes_left: d.recoveryCodeHashes?.length ?? 0, apps: (await store.listMemberships(d.id)).filter((m) => m.role !== 'invited').length, created_at: d.createdAt,
      });
    }
    if (o.json) return io.out(JSON.stringify(listing, null, 2));
    if (!listing.length) return io.out('no developer accounts yet: `lanyard developers invite EMAIL` makes an invitation');
    const rows = [['EMAIL', 'NAME', 'TWO-STEP', 'APPS', 'CREATED'],
      ...listing.map((d) => [showUnseen(d.email), d.display_name, d.two_step ? 'on' : 'off', String(d.apps), d.created_at.slice(0, 10)])];
    for (const line of tableLines(rows, (i) => i === 3)) io.out(line);
  });
}

/**
 * `lanyard developers signout EMAIL`: ends every session of the account and revokes its API tokens, the
 * operator's answer to an account that may be in the wrong hands (as the developer's own "sign out everywhere").
 */
export async function signOutDeveloperCommand(config: Config, clock: Clock, email: string, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const account = await developerByEmail(store, email);
    const { revokedTokens: revoked } = await accountsOf(config, store, clock).endSessions(account, OPERATOR);
    io.out(`${showUnseen(account.email)} is signed out of the developer area everywhere, and ${revoked} API token${revoked === 1 ? '' : 's'} revoked`);
  });
}

/** `lanyard developers unlock EMAIL`: clears the account's sign-in waits, including new-device sign-in stopped after too many wrong tries. */
export async function unlockDeveloperCommand(config: Config, clock: Clock, email: string, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const account = await developerByEmail(store, email);
    const throttle = new LoginThrottle(store, clock, throttlePolicy(config.file.login_throttling));
    for (const scope of Object.values(THROTTLE_SCOPE)) await throttle.unlock(scope, account.email);
    io.out(`${showUnseen(account.email)} can sign in again from any device; known devices stay known`);
  });
}
