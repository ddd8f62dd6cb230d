/** What `lanyard apps connect|disconnect|connections` does (src/cli/apps-command.ts defines the commands). */
import type { AppConnection } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { tableLines } from './table.js';
import { withConfiguredStore } from './configured-store.js';
import { STANDARD_OUTPUT } from './output.js';
import { commandLogger } from '../logging.js';
import { type ConnectRequest, ConnectionsService } from '../clients/connections-service.js';

const write = STANDARD_OUTPUT.out;

/** Who made a connection, as the operator reads it. */
const CONNECTED_BY: Record<AppConnection['source'], string> = { config: 'configuration file', operator: 'operator', school: 'school admin' };

const typesText = (types: string[] | undefined) => (types ? types.join(', ') : 'every user');

/** `lanyard apps connect --org SLUG CLIENT_ID [--types …] [--position N]`. */
export async function connectAppCommand(config: Config, clock: Clock, r: ConnectRequest): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, client, connection, replaced } = await new ConnectionsService(store, clock).connect(r);
    commandLogger().info({
      event: 'app.connected', organisation: organisation.slug, clientId: client.clientId, userTypes: connection.userTypes, replaced,
    }, 'app connected to a school');
    write(`${replaced ? 'updated' : 'connected'}: ${organisation.name} uses "${client.name}" (${client.clientId}), for ${typesText(connection.userTypes)}`);
    if (client.status !== 'live') write(`note: "${client.name}" is still in development: it signs in the school's users once an operator approves it (\`lanyard apps approve ${client.clientId}\`)`);
    if (!client.initiateLoginUri && !client.defaultScopes.length) write(`note: "${client.name}" has no default scopes and no initiate_login_uri, so it has no tile on the dashboard (a launch needs one of them)`);
  });
}

/** `lanyard apps disconnect --org SLUG CLIENT_ID`. */
export async function disconnectAppCommand(config: Config, clock: Clock, organisationRef: string, clientId: string): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, client } = await new ConnectionsService(store, clock).disconnect(organisationRef, clientId);
    commandLogger().info({ event: 'app.disconnected', organisation: organisation.slug, clientId }, 'app disconnected from a school');
    write(`disconnected: ${organisation.name} no longer uses "${client?.name ?? clientId}" (${clientId}); tokens already issued stay valid until they expire`);
  });
}

/** `lanyard apps connections --org SLUG [--json]`: the school's apps in its dashboard's order. */
export async function listConnectionsCommand(config: Config, clock: Clock, organisationRef: string, json: boolean): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, apps } = await new ConnectionsService(store, clock).list(organisationRef);
    const rows = apps.map(({ client, connection }, i) => ({
      position: i + 1,
      client_id: client.clientId,
      name: client.name,
      status: client.status,
      user_types: connection?.userTypes ?? null,
      connected_by: connection ? CONNECTED_BY[connection.source] : 'configuration file (every school)',
      launch: client.initiateLoginUri ? 'initiate_login_uri' : client.defaultScopes.length ? 'code' : 'none',
    }));
    if (json) return write(JSON.stringify({ organisation: { id: organisation.id, slug: organisation.slug, name: organisation.name }, apps: rows }, null, 2));
    if (!rows.length) return write(`${organisation.name} uses no apps yet: \`lanyard apps connect --org ${organisation.slug} CLIENT_ID\``);
    const table = [['#', 'CLIENT_ID', 'NAME', 'STATUS', 'USER TYPES', 'CONNECTED BY', 'LAUNCH'], ...rows.map((r) => [
      String(r.position), r.client_id, r.name, r.status, typesText(r.user_types ?? undefined), r.connected_by, r.launch,
    ])];
    for (const l of tableLines(table)) write(l);
  });
}
