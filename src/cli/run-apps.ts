/** What `lanyard apps …` does (src/cli/apps-command.ts defines the commands, and loads this only to run one). */
import type { Store, StoredClient } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { showUnseen } from '../formats/unseen-characters.js';
import { tableLines } from './table.js';
import { reviewedUrl, type ReviewedUrl, reviewLine } from '../clients/reviewed-url.js';
import { withConfiguredStore } from './configured-store.js';
import { STANDARD_OUTPUT } from './output.js';
import { commandLogger } from '../logging.js';
import { OPERATOR } from '../developer/actor.js';
import type { PendingRequest } from '../developer/app-review.js';
import { AppService } from '../developer/app-service.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../developer/errors.js';

const write = STANDARD_OUTPUT.out;

/** One line of `lanyard apps list`: what an operator reviewing apps needs, never a secret. */
interface AppListing {
  client_id: string;
  name: string;
  status: StoredClient['status'];
  /** `developer` (the developer area) or `config` (the configuration file). */
  source: StoredClient['source'];
  owner_email: string | null;
  /** When the app last asked to go live (ISO 8601); null when it never did. */
  requested_at: string | null;
  homepage_url: string | null;
  redirect_uris: string[];
  /** The callback URLs as a reviewer should read them: host in ASCII (punycode), how it reads, and any warning. */
  redirect_uris_reviewed: ReviewedUrl[];
  /** Where /oauth/logout sends people, and where a dashboard launch starts (null: none). */
  logout_url: string | null;
  initiate_login_uri: string | null;
  review_note: string | null;
  created_at: string;
}

/** The service the pages use, acting as the operator; its log lines (warnings only) go to standard error. */
function appService(store: Store, clock: Clock): AppService {
  return new AppService({ store, clock, log: commandLogger() });
}

async function listing(store: Store, client: StoredClient, requested: string | undefined): Promise<AppListing> {
  const ownerId = (await store.listTeam(client.clientId)).find((m) => m.role === 'owner')?.developerId ?? client.ownerId;
  const owner = ownerId ? await store.findDeveloper(ownerId) : undefined;
  return {
    client_id: client.clientId,
    name: client.name,
    status: client.status,
    source: client.source,
    owner_email: owner?.email ?? null,
    requested_at: requested ?? null,
    homepage_url: client.homepageUrl ?? null,
    redirect_uris: client.redirectUris,
    redirect_uris_reviewed: client.redirectUris.map(reviewedUrl),
    logout_url: client.logoutUrl ?? null,
    initiate_login_uri: client.initiateLoginUri ?? null,
    review_note: client.reviewNote ?? null,
    created_at: client.createdAt,
  };
}

/**
 * `lanyard apps list [--pending] [--json]`: every app (the developer area's and the configuration file's),
 * or only the queue waiting to go live, oldest request first.
 */
export async function listAppsCommand(config: Config, clock: Clock, o: { pending: boolean; json: boolean }): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const service = appService(store, clock);
    const requests: PendingRequest[] = o.pending
      ? await service.listPending()
      : await Promise.all((await store.listClients())
        .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.clientId.localeCompare(b.clientId))
        .map(async (client) => ({ client, requestedAt: client.source === 'developer' ? await service.requestedAt(client.clientId) : undefined })));
    const apps = await Promise.all(requests.map((r) => listing(store, r.client, r.requestedAt)));
    if (o.json) return write(JSON.stringify(apps, null, 2));
    if (!apps.length) return write(o.pending ? 'no apps are waiting to go live' : 'no apps are registered');
    const rows = [['CLIENT_ID', 'NAME', 'STATUS', 'OWNER', 'REQUESTED'], ...apps.map((a) => [
      a.client_id, a.name, a.status, a.source === 'config' ? '(configuration file)' : (a.owner_email === null ? '-' : showUnseen(a.owner_email)), a.requested_at ?? '-',
    ])];
    for (const l of tableLines(rows)) write(l);
    // A reviewer sees every host the way DNS does, so a look-alike (a Cyrillic `а` in `аpple.com`) stands out.
    if (o.pending) {
      for (const a of apps) {
        for (const u of a.redirect_uris) write(`${a.client_id} callback: ${reviewLine(u)}`);
        if (a.logout_url) write(`${a.client_id} logout_url: ${reviewLine(a.logout_url)}`);
        if (a.initiate_login_uri) write(`${a.client_id} initiate_login_uri: ${reviewLine(a.initiate_login_uri)}`);
      }
    }
    if (o.pending) write(`approve with \`lanyard apps approve CLIENT_ID\`, or decline with \`lanyard apps decline CLIENT_ID --note TEXT\``);
  });
}

/** The service's refusals, said for the command line: which app, and what to do. */
function explained(err: unknown, clientId: string, verb: string): unknown {
  if (err instanceof NotFoundError) return new Error(`no app "${clientId}" in the developer area (see \`lanyard apps list\`)`);
  if (err instanceof ConflictError || err instanceof ValidationError || err instanceof ForbiddenError) {
    return new Error(`cannot ${verb} "${clientId}": ${err.message}`);
  }
  return err;
}

/** `lanyard apps approve CLIENT_ID`: pending → live (its development grants revoked), recorded in the app's history as the operator. */
export async function approveAppCommand(config: Config, clock: Clock, clientId: string): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const app = await appService(store, clock).approve(OPERATOR, clientId).catch((err: unknown) => { throw explained(err, clientId, 'approve'); });
    write(`approved "${app.name}" (${app.clientId}): it is live now, on every instance; every sandbox sign-in it had is ended (its tokens revoked); a school uses it once its admins approve the developers' request in the school console, or once connected: \`lanyard apps connect --org SLUG ${app.clientId}\``);
  });
}

/** `lanyard apps decline CLIENT_ID [--note TEXT]`: pending → development; the developers see the note. */
export async function declineAppCommand(config: Config, clock: Clock, clientId: string, note: string | undefined): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const app = await appService(store, clock).decline(OPERATOR, clientId, note).catch((err: unknown) => { throw explained(err, clientId, 'decline'); });
    write(`declined "${app.name}" (${app.clientId}): it is back in development (the sandbox school only)${app.reviewNote ? '; its developers see your note' : ''}`);
  });
}

