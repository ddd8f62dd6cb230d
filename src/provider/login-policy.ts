import { interactionPolicy } from 'oidc-provider';
import type { Connections, Directory, User } from '../../adapters/store.js';
import { stillValid } from '../accounts/account-status.js';
import { availabilityOf, type AvailabilitySources, namesSandboxOrNone, schoolRefusal } from '../clients/app-availability.js';

interface PolicyContext {
  oidc: { params: Record<string, unknown>; session?: { accountId?: string; loginTs?: number }; client?: { clientId: string } };
}

const { Check } = interactionPolicy;

/**
 * oidc-provider's default prompts, plus three login checks:
 * - a session of a user who was suspended or deleted, or that began before the user's sessions were ended
 *   (a credential changed, `lanyard users signout`), counts as no session: a new sign-in is needed, and
 *   with prompt=none the app gets login_required (OIDC Core §3.1.2.6), like for no session at all;
 * - when the request names an organisation, a session signed in to another organisation does not satisfy
 *   it (the user logs in again, for that one);
 * - an app signs in only the users it is available to (src/clients/app-availability.ts: an app still in
 *   development only the sandbox school's, a live app only the schools that use it, for the user types they
 *   chose): a session of anyone else does not satisfy it, so no code is issued silently; the user signs in
 *   again (and is refused with a page that sends access_denied back), and with prompt=none the app gets
 *   login_required. For an app in development this check comes first and also covers a request naming any
 *   school but the sandbox, so its answer never depends on who is signed in (docs/developer-area.md).
 * There is no consent screen: apps are trusted — config-file apps by ops, developer apps once an operator
 * approves them (until then they reach only the sandbox school) — see grant-loader.ts.
 */
export function loginPolicy(directory: Directory & Connections, clients: AvailabilitySources['clients']) {
  const policy = interactionPolicy.base();
  // The session's user, read once per request however many checks ask (each request has its own ctx).
  const users = new WeakMap<object, Promise<User | undefined>>();
  const userOf = (ctx: unknown, accountId: string): Promise<User | undefined> => {
    let user = users.get(ctx as object);
    if (!user) users.set(ctx as object, user = directory.findUser(accountId));
    return user;
  };
  const login = policy.get('login')!;
  // Checks added after the prompt is built get no default error: name it, so prompt=none is login_required.
  // The description is the one for no session at all: the app is not told why.
  login.checks.add(new Check(
    'session_ended',
    'End-User authentication is required',
    'login_required',
    async (ctx: unknown) => {
      const { session } = (ctx as PolicyContext).oidc;
      if (!session?.accountId) return Check.NO_NEED_TO_PROMPT;
      return stillValid(await userOf(ctx, session.accountId), session.loginTs)
        ? Check.NO_NEED_TO_PROMPT
        : Check.REQUEST_PROMPT;
    },
  ));
  // Before organisation_mismatch: what a development app is told must not depend on the visitor's session
  // (an app could otherwise walk the school list with prompt=none and learn whether, and at which school, a
  // visitor is signed in). Anyone but a sandbox user asking for the sandbox school gets login_required,
  // exactly as with no session at all.
  login.checks.add(new Check(
    'development_app',
    'End-User authentication is required',
    'login_required',
    async (ctx: unknown) => {
      const { oidc } = ctx as PolicyContext;
      const accountId = oidc.session?.accountId;
      if (!accountId) return Check.NO_NEED_TO_PROMPT;
      const clientId = oidc.client?.clientId ?? String(oidc.params.client_id ?? '');
      const availability = await availabilityOf({ clients, store: directory }, clientId);
      if (availability.sandboxOnly && !namesSandboxOrNone(oidc.params.organisation, availability.sandbox)) return Check.REQUEST_PROMPT;
      const user = await userOf(ctx, accountId);
      return user && (await schoolRefusal({ store: directory }, availability, user.organisationId, user.type)) === undefined
        ? Check.NO_NEED_TO_PROMPT
        : Check.REQUEST_PROMPT;
    },
  ));
  login.checks.add(new Check(
    'organisation_mismatch',
    'the session belongs to another organisation',
    async (ctx: unknown) => {
      const { oidc } = ctx as PolicyContext;
      const wanted = oidc.params.organisation as string | undefined;
      const accountId = oidc.session?.accountId;
      if (!wanted || !accountId) return Check.NO_NEED_TO_PROMPT;
      const [org, user] = await Promise.all([directory.findOrganisation(wanted), userOf(ctx, accountId)]);
      return org && user?.organisationId === org.id
        ? Check.NO_NEED_TO_PROMPT
        : Check.REQUEST_PROMPT;
    },
  ));
  return policy;
}
