/** What `lanyard apps changes|approve-change|decline-change` do (src/cli/apps-command.ts defines the commands). */
import type { Store, StoredClient } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { reviewedUrl, reviewLine } from '../clients/reviewed-url.js';
import { commandLogger } from '../logging.js';
import { OPERATOR } from '../developer/actor.js';
import { AppService } from '../developer/app-service.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../developer/errors.js';
import type { ProposedChange } from '../developer/live-changes.js';
import { withConfiguredStore } from './configured-store.js';
import { STANDARD_OUTPUT } from './output.js';

const write = STANDARD_OUTPUT.out;

const appService = (store: Store, clock: Clock) =>
  new AppService({ store, clock, log: commandLogger() });

/** What a reviewer is shown of one change: the URL with its host in ASCII, how it reads, and any warning. */
const changeJson = (client: StoredClient, c: ProposedChange) => {
  const r = reviewedUrl(c.url);
  return {
    client_id: client.clientId, app_name: client.name, change_id: c.id, setting: c.kind,
    url: c.url, url_ascii: r.ascii, host_unicode: r.unicodeHost ?? null, warning: r.warning ?? null,
    current: c.kind === 'redirect_uri' ? client.redirectUris : (c.kind === 'logout_url' ? client.logoutUrl : client.initiateLoginUri) ?? null,
    proposed_by: c.proposedBy.name, proposed_at: c.proposedAt,
  };
};

/**
 * `lanyard apps changes [--json]`: the changes to live apps waiting for review (docs/developer-area.md →
 * Changes to a live app), oldest first, each URL with its host in ASCII (punycode) and hosts that mix
 * writing systems flagged.
 */
export async function listChangesCommand(config: Config, clock: Clock, json: boolean): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const queue = await appService(store, clock).listProposals();
    const changes = queue.flatMap(({ client, changes: cs }) => cs.map((c) => changeJson(client, c)));
    if (json) return write(JSON.stringify(changes, null, 2));
    if (!changes.length) return write('no changes to live apps are waiting for review');
    for (const c of changes) {
      write(`${c.app_name} (${c.client_id}) · change ${c.change_id} · ${c.setting} · proposed by ${c.proposed_by} at ${c.proposed_at}`);
      write(`  new:  ${reviewLine(c.url)}`);
      const current = Array.isArray(c.current) ? c.current : c.current ? [c.current] : [];
      write(`  now:  ${current.length ? current.map(reviewLine).join('\n        ') : '(none)'}`);
    }
    write('approve with `lanyard apps approve-change CLIENT_ID --change ID`, or decline with `lanyard apps decline-change CLIENT_ID --change ID --note TEXT`');
  });
}

function explained(err: unknown, clientId: string, verb: string): unknown {
  if (err instanceof NotFoundError) return new Error(err.noSuchApp ? `no app "${clientId}" in the developer area (see \`lanyard apps list\`)` : `cannot ${verb}: ${err.message} (see \`lanyard apps changes\`)`);
  if (err instanceof ConflictError || err instanceof ValidationError || err instanceof ForbiddenError) return new Error(`cannot ${verb} the change to "${clientId}": ${err.message}`);
  return err;
}

/** `lanyard apps approve-change CLIENT_ID --change ID`: the change takes effect now, on every instance. */
export async function approveChangeCommand(config: Config, clock: Clock, clientId: string, changeId: string): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const app = await appService(store, clock).approveChange(OPERATOR, clientId, changeId).catch((err: unknown) => { throw explained(err, clientId, 'approve'); });
    write(`approved change ${changeId} to "${app.name}" (${app.clientId}): it takes effect now, on every instance`);
  });
}

/** `lanyard apps decline-change CLIENT_ID --change ID [--note TEXT]`: dropped; the team sees the note in the app's history. */
export async function declineChangeCommand(config: Config, clock: Clock, clientId: string, changeId: string, note: string | undefined): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const change = await appService(store, clock).declineChange(OPERATOR, clientId, changeId, note).catch((err: unknown) => { throw explained(err, clientId, 'decline'); });
    write(`declined change ${change.id} (${change.kind} ${reviewedUrl(change.url).ascii}) to "${clientId}"${note?.trim() ? '; its team sees your note in the app\'s history' : ''}`);
  });
}
