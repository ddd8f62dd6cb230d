import type { StoredClient } from '../../adapters/store.js';
import { ConnectionsService } from '../clients/connections-service.js';
import type { SchoolApp } from '../clients/school-apps.js';
import { type AppActing, recordAppChange } from './app-audit.js';
import { connectable, requestsOf, schoolAppOf } from './app-choices.js';
import type { SchoolDeps } from './deps.js';
import { SchoolInputError } from './errors.js';

/**
 * What a school admin changes about the school's apps (docs/school-console.md → Apps), for the Apps pages and
 * /school/api alike, each recorded in the school's audit trail: connect an offered app (or a configuration-file
 * app of every school, to choose who uses it and where), who may use it, its place on the dashboard, stop using
 * it; approve or decline an app asking. Refusals: ConnectionRefused and RequestRefused (src/clients/), a 404 for
 * an app not the school's to see (app-choices.ts), SchoolInputError for the configuration file's connections.
 */

const connectionsOf = (deps: SchoolDeps) => new ConnectionsService(deps.store, deps.clock);

/** Connects an app offered to the school; `connected` is false when the school had connected it already. */
export async function connectApp(deps: SchoolDeps, s: AppActing, clientId: string): Promise<{ client: StoredClient; connected: boolean }> {
  const client = await connectable(deps, s.school.organisation, clientId);
  const { replaced } = await connectionsOf(deps).connect({ organisation: s.school.organisation.id, clientId: client.clientId, source: 'school' });
  if (!replaced) recordAppChange(deps, s, 'app.connected', client);
  return { client, connected: !replaced };
}

/** The school's own connection of the app (not the file's): the ones a school admin changes. */
export async function ownApp(deps: SchoolDeps, s: AppActing, clientId: string): Promise<SchoolApp> {
  const app = await schoolAppOf(deps, s.school.organisation, clientId);
  if (!app.connection || app.connection.source === 'config') throw new SchoolInputError('The configuration file puts this app on your school’s dashboards: ask Lanyard’s operator to change it.');
  return app;
}

/** Only these user types may use the app; undefined: everyone. Returns the types stored. */
export async function setAppUserTypes(deps: SchoolDeps, s: AppActing, clientId: string, userTypes: string[] | undefined): Promise<{ client: StoredClient; userTypes: string[] | undefined }> {
  const { client } = await ownApp(deps, s, clientId);
  const { connection } = await connectionsOf(deps).connect({ organisation: s.school.organisation.id, clientId: client.clientId, userTypes });
  recordAppChange(deps, s, 'app.user_types_changed', client, { user_types: connection.userTypes?.join(' ') ?? 'everyone' });
  return { client, userTypes: connection.userTypes };
}

/** Moves the app to a 1-based place on the dashboard (past the end: the last). Returns the place it has now. */
export async function moveApp(deps: SchoolDeps, s: AppActing, clientId: string, place: number): Promise<{ client: StoredClient; place: number }> {
  const { client } = await ownApp(deps, s, clientId);
  const placed = await connectionsOf(deps).move(s.school.organisation.id, client.clientId, place);
  const now = placed.findIndex((c) => c.clientId === client.clientId) + 1;
  recordAppChange(deps, s, 'app.moved', client, { place: String(now) });
  return { client, place: now };
}

/** The school stops using the app: off its dashboards, signing no one of it in; its developers are told. */
export async function disconnectApp(deps: SchoolDeps, s: AppActing, clientId: string): Promise<StoredClient> {
  const { client } = await ownApp(deps, s, clientId);
  await connectionsOf(deps).disconnect(s.school.organisation.id, client.clientId);
  await requestsOf(deps).disconnected(s.school.organisation, client);
  recordAppChange(deps, s, 'app.disconnected', client);
  return client;
}

/** Approves an app asking to be used: connected for everyone, after the school's other apps. */
export async function approveApp(deps: SchoolDeps, s: AppActing, clientId: string): Promise<StoredClient> {
  const requests = requestsOf(deps);
  const { client } = await requests.requestOf(s.school.organisation, clientId);
  await requests.approve(s.school.organisation, client.clientId);
  recordAppChange(deps, s, 'app.request_approved', client);
  return client;
}

/** Declines an app asking, with a reason its developers read (RequestRefused naming `reason` when there is none). */
export async function declineApp(deps: SchoolDeps, s: AppActing, clientId: string, reason: string): Promise<StoredClient> {
  const requests = requestsOf(deps);
  const { client } = await requests.requestOf(s.school.organisation, clientId);
  await requests.decline(s.school.organisation, client.clientId, reason);
  recordAppChange(deps, s, 'app.request_declined', client, { reason: reason.trim() });
  return client;
}
