import type { Organisation, StoredClient, User } from '../../adapters/store.js';

/**
 * Which schools' users an app may sign in (issue 9 §3, "Sandbox and going live"): the one rule, asked by the
 * organisation step of the sign-in screens, again where a sign-in completes, and by the login policy for a
 * session that already exists.
 *
 * - An app still in development (`development`, or `pending` while an operator reviews its request to go
 *   live) signs in only users of the sandbox school (src/developer/sandbox.ts), so a developer can try the
 *   whole flow before any real child is involved.
 * - A `live` developer app, a config-file client (always `live`: src/clients/config-clients.ts) and
 *   Lanyard's built-in clients sign in every real school's users. The dashboard issue narrows live apps to
 *   the schools that connect them; until then config-file clients stay trusted for every school, as before.
 * - The other way round too: the sandbox school's users sign in ONLY to apps in development. Their
 *   credentials are shown to every developer, so a live app (one of real schools, whose ID tokens a sandbox
 *   "admin" would otherwise be indistinguishable in) never signs one in.
 *
 * The rule reads only the status, so anything not `live` is held to the sandbox (it fails closed).
 */

/** The sandbox school's slug: reserved (a configuration file may not use it: src/config.ts). */
export const SANDBOX_SLUG = 'sandbox';

/** What a development app's sign-in screen says when another school is asked for. */
export const DEVELOPMENT_APP_MESSAGE = 'This app is still in development: only the sandbox school can sign in to it.';
/** What a live app's sign-in screen says when the sandbox school is asked for. */
export const SANDBOX_SCHOOL_MESSAGE = 'The sandbox school is for testing apps in development: its test users cannot sign in to this app.';

/** Whether the client may sign in only the sandbox school's users (an unknown client too: failing closed). */
export const sandboxOnly = (client: Pick<StoredClient, 'status'> | undefined): boolean => client?.status !== 'live';

/** Why no one of a school may sign in to an app here (the error code of the refusal page). */
export type Refusal = 'development_app' | 'sandbox_school';

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

/** Whether the client may sign in users of this organisation (refusalFor finds none). */
export const organisationAllowed = (client: Pick<StoredClient, 'status'> | undefined, organisationId: string, sandbox: Organisation | undefined): boolean =>
  refusalFor(client, organisationId, sandbox) === undefined;

/** Whether the client may sign in this user (their organisation decides). */
export const userAllowed = (client: Pick<StoredClient, 'status'> | undefined, user: Pick<User, 'organisationId'>, sandbox: Organisation | undefined): boolean =>
  organisationAllowed(client, user.organisationId, sandbox);

/** The stores the rule reads: the client (through the registry, which also knows the built-in clients) and the sandbox school. */
export interface AvailabilitySources {
  clients: { get(clientId: string): Promise<StoredClient | undefined> };
  store: { findOrganisation(slugOrId: string): Promise<Organisation | undefined> };
}

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

/** Whether the client may sign in the user with this id's organisation (false for an unknown user). */
export async function mayClientSignIn(src: AvailabilitySources, clientId: string, user: Pick<User, 'organisationId'> | undefined): Promise<boolean> {
  if (!user) return false;
  const a = await availabilityOf(src, clientId);
  return userAllowed(a.client, user, a.sandbox);
}
