import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginMethod, Organisation } from '../adapters/store.js';
import { csrfToken, csrfValid } from './csrf.js';
import { type Details, type InteractionDeps, loadInteraction, sendHtml } from './context.js';
import { errorPage } from './views/error-page.js';

/** Everything a login method's screen needs about the sign-in under way. */
export interface LoginStep {
  details: Details;
  organisation: Organisation;
  uid: string;
  csrf: string;
  clientName: string;
  /** The app did not name the organisation, so the user may pick another. */
  canChangeOrganisation: boolean;
}

type StepRequest = FastifyRequest<{ Params: { uid: string }; Querystring: { org?: string }; Body: unknown }>;

/** The organisation this login is for: the one the app named (SPEC: authorize `organisation`) wins. */
export async function organisationFor(deps: InteractionDeps, details: Details, chosen: unknown): Promise<Organisation | undefined> {
  const named = details.params.organisation as string | undefined;
  if (named) return deps.store.findOrganisation(named);
  return typeof chosen === 'string' && chosen ? deps.store.findOrganisation(chosen) : undefined;
}

export const clientNameOf = async (deps: InteractionDeps, details: Details) =>
  (await deps.clients.get(String(details.params.client_id)))?.name ?? 'the app';

/**
 * The common preamble of every login method's routes: a live interaction at the login prompt, a valid CSRF
 * token on posts, an organisation that offers `method`. Answers the request itself (expired page, 403,
 * back to the picker) and returns undefined when any of that is missing.
 */
export async function loginStep(
  deps: InteractionDeps,
  req: StepRequest,
  reply: FastifyReply,
  method: LoginMethod,
): Promise<LoginStep | undefined> {
  const details = await loadInteraction(deps, req, reply);
  if (!details) return undefined;
  const body = (req.method === 'POST' ? req.body ?? {} : {}) as Record<string, unknown>;
  if (req.method === 'POST' && !csrfValid(deps.cookieKeys, details.uid, body.csrf)) {
    sendHtml(reply, 403, errorPage('Cannot sign you in', 'This form has expired. Go back to the app and start again.', 'invalid_form'));
    return undefined;
  }
  if (details.prompt.name !== 'login') {
    sendHtml(reply, 400, errorPage('Cannot sign you in', 'This sign-in step is not expected now.', details.prompt.name));
    return undefined;
  }
  const organisation = await organisationFor(deps, details, req.method === 'POST' ? body.org : req.query.org);
  if (!organisation) {
    reply.redirect(`/interaction/${details.uid}`, 303);
    return undefined;
  }
  if (!organisation.login.methods.includes(method)) {
    sendHtml(reply, 404, errorPage('Not available', `${organisation.name} does not use this way of signing in.`, 'method_disabled'));
    return undefined;
  }
  deps.devices.ensure(req, reply);
  return {
    details,
    organisation,
    uid: details.uid,
    csrf: csrfToken(deps.cookieKeys, details.uid),
    clientName: await clientNameOf(deps, details),
    canChangeOrganisation: !details.params.organisation,
  };
}
