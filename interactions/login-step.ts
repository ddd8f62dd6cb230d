import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginMethod, Organisation } from '../adapters/store.js';
import { csrfToken, csrfValid } from '../src/web/csrf.js';
import { type Details, type InteractionDeps, loadInteraction, sendHtml } from './context.js';
import { errorPage } from '../src/web/error-page.js';
import { type Availability, availabilityOf, DEVELOPMENT_APP_MESSAGE, type Refusal, refusalFor, SANDBOX_SCHOOL_MESSAGE, SANDBOX_SLUG } from '../src/developer/app-availability.js';
import { csrfField } from '../src/web/components.js';
import { html } from '../src/web/html.js';
import { layout } from '../src/web/layout.js';

/** Everything a login method's screen needs about the sign-in under way. */
export interface LoginStep {
  details: Details;
  organisation: Organisation;
  uid: string;
  csrf: string;
  clientName: string;
  /** The app did not name the organisation, so the user may pick another. */
  canChangeOrganisation: boolean;
  /** Which schools' users the app may sign in (src/developer/app-availability.ts), as read for this step. */
  availability: Availability;
}

type StepRequest = FastifyRequest<{ Params: { uid: string }; Querystring: { org?: string }; Body: unknown }>;

/** Where the organisation step stands: which organisation, whether the user may choose another. */
export interface OrganisationChoice {
  /** Undefined: the user picks one (the app named none). */
  organisation?: Organisation | undefined;
  /** The user may pick another organisation: the app named none, and it is not held to the sandbox school. */
  canChange: boolean;
  /**
   * No one may sign in here (app-availability.ts): the app is in development and named another school, or
   * it is live and named the sandbox school.
   */
  refused?: Refusal;
  /** The app's name, for the screens (from the client read that decided the rest). */
  clientName: string;
  /** What decided it: completeLogin checks the signed-in user against the same, without reading it again. */
  availability: Availability;
}

/**
 * The organisation this login is for: the one the app named (SPEC: authorize `organisation`) wins. An app
 * still in development signs in only the sandbox school's users (src/developer/app-availability.ts): it
 * goes straight to the sandbox school, and naming another school is refused.
 */
export async function organisationFor(deps: InteractionDeps, details: Details, chosen: unknown): Promise<OrganisationChoice> {
  const named = details.params.organisation as string | undefined;
  const availability = await availabilityOf(deps, String(details.params.client_id));
  const decided = { clientName: availability.client?.name ?? 'the app', availability };
  if (availability.sandboxOnly) {
    const { sandbox } = availability;
    if (!sandbox || (named && named !== sandbox.slug && named !== sandbox.id)) return { canChange: false, refused: 'development_app', ...decided };
    return { organisation: sandbox, canChange: false, ...decided };
  }
  const refused = (o: Organisation | undefined) => (o ? refusalFor(availability.client, o.id, availability.sandbox) : undefined);
  if (named) {
    const organisation = await deps.store.findOrganisation(named);
    const refusal = refused(organisation);
    return refusal ? { canChange: false, refused: refusal, ...decided } : { organisation, canChange: false, ...decided };
  }
  // A live app's user who picks the sandbox school by hand (?org=sandbox) is sent back to the picker.
  const organisation = typeof chosen === 'string' && chosen ? await deps.store.findOrganisation(chosen) : undefined;
  return { organisation: refused(organisation) ? undefined : organisation, canChange: true, ...decided };
}

/** Answers a sign-in no one may complete here: logged (`login.refused`), then the page below, 403. */
export function sendRefused(
  deps: InteractionDeps, req: FastifyRequest, reply: FastifyReply, details: Details, clientName: string, reason: Refusal,
  o: { level: 'info' | 'warn'; accountId?: string } = { level: 'info' },
): FastifyReply {
  const { level, accountId } = o;
  req.log[level]({ event: 'login.refused', reason, clientId: details.params.client_id, ...(accountId ? { accountId } : {}) }, 'organisation refused for this app');
  return sendHtml(reply, 403, refusedPage(deps, details, clientName, reason));
}

/**
 * The page for a sign-in no one may complete (answered 403): a development app asked for another school, or
 * a live app asked for the sandbox school. Nothing is signed in, and the one way on is back to the app,
 * which receives `access_denied` (interactions/cancel.ts).
 */
function refusedPage(deps: InteractionDeps, details: Details, clientName: string, reason: Refusal): string {
  const back = html`<form method="post" action="/interaction/${details.uid}/cancel">
  ${csrfField(csrfToken(deps.cookieKeys, details.uid))}
  <button type="submit">Go back to ${clientName}</button>
</form>
<p class="muted">Error code: <code>${reason}</code></p>`;
  if (reason === 'sandbox_school') {
    return layout('Not available for the sandbox school', html`
<h1>Not available for the sandbox school</h1>
<p>${SANDBOX_SCHOOL_MESSAGE}</p>
${back}
`);
  }
  return layout('This app is still in development', html`
<h1>This app is still in development</h1>
<p>${DEVELOPMENT_APP_MESSAGE}</p>
<p class="muted">${clientName} has not been approved for schools yet. Its developers test it with the sandbox
school's test users. If you are one of them, leave out the <code>organisation</code> parameter or use
<code>organisation=${SANDBOX_SLUG}</code>.</p>
${back}
`);
}

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
  const choice = await organisationFor(deps, details, req.method === 'POST' ? body.org : req.query.org);
  if (choice.refused) {
    sendRefused(deps, req, reply, details, choice.clientName, choice.refused);
    return undefined;
  }
  const { organisation } = choice;
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
    clientName: choice.clientName,
    canChangeOrganisation: choice.canChange,
    availability: choice.availability,
  };
}
