import { SANDBOX_SLUG } from '../config/reserved.js';
import type { AppConnection, Organisation, Store, StoredClient, User } from '../../adapters/store.js';

/**
 * Which schools' users an app may sign in: the one rule, asked by the organisation step of the sign-in
 * screens, again where a sign-in completes (with the user's type), by the login policy for a session that
 * already exists, and by the dashboard for its tiles and launches.
 *
 * - An app still in development (`development`, or `pending` while an operator reviews its request to go
 *   live) signs in only users of the sandbox school (src/developer/sandbox.ts), so a developer can try the
 *   whole flow before any real child is involved (docs/developer-area.md).
 * - The other way round too: the sandbox school's users sign in ONLY to apps in development. Their
 *   credentials are shown to every developer, so a live app (one of real schools, whose ID tokens a sandbox
 *   "admin" would otherwise be indistinguishable in) never signs one in.
 * - A real school's users sign in to a live app only when the school uses it (docs/dashboard-and-app-launch.md): a connection
 *   (adapters/store/connections.ts: the file's `organisations[].apps`, `lanyard apps connect`, or a school
 *   admin in the school console), for the user's type when the connection names types. With
 *   `config_apps: "every_school"` a configuration-file client that no organisation lists is connected to
 *   every school (`allOrganisations`); by default it is only offered, and needs a connection like any other.
 *   Lanyard's built-in client serves every school.
 *
 * The rule reads only the status, so anything not `live` is held to the sandbox (it fails closed).
 */


/** What a development app's sign-in screen says when another school is asked for. */
export const DEVELOPMENT_APP_MESSAGE = 'This app is still in development: only the sandbox school can sign in to it.';
/** What a live app's sign-in screen says when the sandbox school is asked for. */
export const SANDBOX_SCHOOL_MESSAGE = 'The sandbox school is for testing apps in development: its test users cannot sign in to this app.';

/** Whether the client may sign in only the sandbox school's users (an unknown client too: failing closed). */
export const sandboxOnly = (client: Pick<StoredClient, 'status'> | undefined): boolean => client?.status !== 'live';

/** What an app's sign-in screen says when the user's school does not use it. */
export const NOT_CONNECTED_MESSAGE = 'This app is not available at your school.';

/**
 * Why no one of a school (or of this type) may sign in to an app here: the error code of the refusal page.
 * `not_connected`: the school does not use the app, or not for this type of user.
 */
export type Refusal = 'development_app' | 'sandbox_school' | 'not_connected';

/**
 * Why the client may not sign in users of this organisation, or undefined when it may. `sandbox` is the
 * sandbox school as it is now in the store (undefined when it is missing: then a development app signs in
 * no one, a live one anyone).
 */
export function refusalFor(client: Pick<StoredClient, 'status'> | undefined, organisationId: string, sandbox: Organisation | undefined): Refusal | undefined {
  const inSandbox = sandbox !== undefined && organisationId === sandbox.id;
  if (sandboxOnly(client)) return inSandbox ? undefined : 'development_app';
  return inSandbox ? 'sandbox_school' : undefined;
}

/** Whether the client may sign in users of this organisation as far as the sandbox rule goes (refusalFor finds none). */
export const organisationAllowed = (client: Pick<StoredClient, 'status'> | undefined, organisationId: string, sandbox: Organisation | undefined): boolean =>
  refusalFor(client, organisationId, sandbox) === undefined;

/** Whether a connection lets a user of this type (undefined: not known yet) use the app. */
export const connectionAdmits = (connection: Pick<AppConnection, 'userTypes'>, userType: string | undefined): boolean =>
  userType === undefined || connection.userTypes === undefined || connection.userTypes.includes(userType);

/** The stores the rule reads: the client (through the registry, which also knows the built-in clients), the sandbox school, connections. */
export interface AvailabilitySources {
  clients: { get(clientId: string): Promise<StoredClient | undefined> };
  store: Pick<Store, 'findOrganisation' | 'findConnection'>;
}

/**
 * Whether an authorization request's `organisation` leaves a development app's sign-in at the sandbox school:
 * absent, or naming the sandbox (by slug or id). Anything else is refused the same way whoever is signed in.
 */
export const namesSandboxOrNone = (named: unknown, sandbox: Pick<Organisation, 'id' | 'slug'> | undefined): boolean =>
  named === undefined || named === '' || (!!sandbox && (named === sandbox.slug || named === sandbox.id));

/** What the rule reads about one sign-in: the client, the sandbox school, and whether the client is held to it. */
export interface Availability {
  client: StoredClient | undefined;
  sandbox: Organisation | undefined;
  sandboxOnly: boolean;
}

/** The client and the sandbox school (one store read each), and whether the client is held to the sandbox. */
export async function availabilityOf(src: AvailabilitySources, clientId: string): Promise<Availability> {
  const [client, sandbox] = await Promise.all([
    clientId ? src.clients.get(clientId) : Promise.resolve(undefined),
    src.store.findOrganisation(SANDBOX_SLUG),
  ]);
  return { client, sandbox, sandboxOnly: sandboxOnly(client) };
}

/**
 * Why the client may not sign in users of this organisation (of this type, when known), or undefined when
 * it may: the sandbox rule (refusalFor), then, for a live app at a real school, the school's connection.
 */
export async function schoolRefusal(
  src: Pick<AvailabilitySources, 'store'>, a: Availability, organisationId: string, userType?: string,
): Promise<Refusal | undefined> {
  const sandboxRefusal = refusalFor(a.client, organisationId, a.sandbox);
  if (sandboxRefusal || a.sandboxOnly || !a.client || a.client.source === 'builtin') return sandboxRefusal;
  // The school's own connection decides (its user types too), even for a config client of every school.
  const connection = await src.store.findConnection(organisationId, a.client.clientId);
  if (connection) return connectionAdmits(connection, userType) ? undefined : 'not_connected';
  return a.client.allOrganisations ? undefined : 'not_connected';
}

/** Whether the client may sign in this user (false for an unknown user). */
export async function mayClientSignIn(src: AvailabilitySources, clientId: string, user: Pick<User, 'organisationId' | 'type'> | undefined): Promise<boolean> {
  if (!user) return false;
  return (await schoolRefusal(src, await availabilityOf(src, clientId), user.organisationId, user.type)) === undefined;
}
