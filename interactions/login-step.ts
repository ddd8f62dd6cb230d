import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginMethod, Organisation } from '../adapters/store.js';
import { offersHelpCodes } from '../src/accounts/help-codes.js';
import { csrfToken, csrfValid } from '../src/web/csrf.js';
import { type Details, type InteractionDeps, loadInteraction, sendHtml } from './context.js';
import { errorPage, SCHOOL_APPS } from '../src/web/error-page.js';
import { type Availability, availabilityOf, DEVELOPMENT_APP_MESSAGE, namesSandboxOrNone, type Refusal, SANDBOX_SCHOOL_MESSAGE, schoolRefusal } from '../src/clients/app-availability.js';
import { SANDBOX_SLUG } from '../src/config/reserved.js';
import { csrfField, forAdults } from '../src/web/components.js';
import { html } from '../src/web/html.js';
import { layout } from '../src/web/layout.js';
import { translatorFor } from '../src/web/i18n/choose-locale.js';
import type { Translator } from '../src/web/i18n/translator.js';

/**
 * A screen of the sign-in: one of the school's login methods, or a help code, which every school offers
 * (docs/childrens-sign-in.md → Help codes: src/accounts/help-codes.ts offersHelpCodes).
 */
export type StepMethod = LoginMethod | 'help_code';

/** Everything a login method's screen needs about the sign-in under way. */
export interface LoginStep {
  details: Details;
  organisation: Organisation;
  uid: string;
  csrf: string;
  clientName: string;
  /** The sign-in screens' way out (cancelLabel below). */
  cancelLabel: string;
  /** The app did not name the organisation, so the user may pick another. */
  canChangeOrganisation: boolean;
  /** Which schools' users the app may sign in (src/clients/app-availability.ts), as read for this step. */
  availability: Availability;
  /** The screens' language: the switch's choice, else the school's, else the browser's (src/web/i18n/choose-locale.ts). */
  t: Translator;
  /** This screen's address as asked (req.url), for the language switch. */
  url: string;
}

type StepRequest = FastifyRequest<{ Params: { uid: string }; Querystring: { org?: string }; Body: unknown }>;

/** Where the organisation step stands: which organisation, whether the user may choose another. */
export interface OrganisationChoice {
  /** Undefined: the user picks one (the app named none). */
  organisation?: Organisation | undefined;
  /** The user may pick another organisation: the app named none, and it is not held to the sandbox school. */
  canChange: boolean;
  /**
   * No one may sign in here (app-availability.ts): the app is in development and named another school, it
   * is live and named the sandbox school, or the school (named, chosen or remembered) does not use it.
   */
  refused?: Refusal;
  /** The app's name, for the screens (from the client read that decided the rest). */
  clientName: string;
  /** The words on the screens' cancel button (cancelLabel below). */
  cancelLabel: string;
  /** What decided it: completeLogin checks the signed-in user against the same, without reading it again. */
  availability: Availability;
}

/**
 * The app as the sign-in screens name it ("Signing in to …", "Cancel and go back to …"). Lanyard's own
 * pages (the dashboard, a classroom device: src/clients/builtin-clients.ts) are "your school apps": a
 * pupil is on Lanyard already, and "Signing in to Lanyard" would tell them nothing.
 */
const shownClientName = (client: Availability['client']): string =>
  (client?.source === 'builtin' ? 'your school apps' : client?.name ?? 'the app');

/**
 * The cancel button's words: "Cancel and go back to <app>", where the app is someone else's. On Lanyard's own
 * pages, cancelling goes back to where the user started (finding their school, or the classroom device page),
 * where nothing is signed in yet, so "go back to your school apps" would promise what is not there: "Cancel".
 */
const cancelLabel = (client: Availability['client']): string =>
  (client?.source === 'builtin' ? 'Cancel' : `Cancel and go back to ${shownClientName(client)}`);

/**
 * The organisation this login is for: the one the app named (SPEC: authorize `organisation`) wins. An app
 * still in development signs in only the sandbox school’s users (src/clients/app-availability.ts): it
 * goes straight to the sandbox school, and naming another school is refused. Otherwise the user's choice
 * (`chosen`), else `fallback` (the school of the session's user, or the one this device remembers:
 * src/accounts/school-memory.ts), which the user may change. A school that does not use the app is
 * refused with its own page; a live app's user who lands on the sandbox school goes back to the picker.
 */
export async function organisationFor(deps: InteractionDeps, details: Details, chosen: unknown, fallback?: string): Promise<OrganisationChoice> {
  const named = details.params.organisation as string | undefined;
  const availability = await availabilityOf(deps, String(details.params.client_id));
  const decided = { clientName: shownClientName(availability.client), cancelLabel: cancelLabel(availability.client), availability };
  if (availability.sandboxOnly) {
    const { sandbox } = availability;
    if (!sandbox || !namesSandboxOrNone(named, sandbox)) return { canChange: false, refused: 'development_app', ...decided };
    return { organisation: sandbox, canChange: false, ...decided };
  }
  const refusalAt = (o: Organisation) => schoolRefusal(deps, availability, o.id);
  if (named) {
    const organisation = await deps.store.findOrganisation(named);
    const refusal = organisation && await refusalAt(organisation);
    return refusal ? { organisation, canChange: false, refused: refusal, ...decided } : { organisation, canChange: false, ...decided };
  }
  const pick = typeof chosen === 'string' && chosen ? chosen : fallback;
  const organisation = pick ? await deps.store.findOrganisation(pick) : undefined;
  if (!organisation) return { canChange: true, ...decided };
  const refusal = await refusalAt(organisation);
  if (refusal === 'not_connected') return { organisation, canChange: true, refused: refusal, ...decided };
  return { organisation: refusal ? undefined : organisation, canChange: true, ...decided };
}

/** What the refusal page may offer besides going back: another school, when the user chose this one. */
export interface RefusalContext {
  level: 'info' | 'warn';
  accountId?: string | undefined;
  organisation?: Organisation | undefined;
  canChange?: boolean;
}

/** Answers a sign-in no one may complete here: logged (`login.refused`), then the page below, 403. */
export function sendRefused(
  deps: InteractionDeps, req: FastifyRequest, reply: FastifyReply, details: Details, clientName: string, reason: Refusal,
  o: RefusalContext = { level: 'info' },
): FastifyReply {
  const { level, accountId } = o;
  req.log[level]({
    event: 'login.refused', reason, clientId: details.params.client_id,
    ...(o.organisation ? { organisation: o.organisation.slug } : {}), ...(accountId ? { accountId } : {}),
  }, 'sign-in refused for this app');
  return sendHtml(reply, 403, refusedPage(deps, details, clientName, reason, o));
}

/**
 * The page for a sign-in no one may complete (answered 403): a development app asked for another school, a
 * live app asked for the sandbox school, or the user's school does not use the app. Nothing is signed in,
 * and the way on is back to the app, which receives `access_denied` (interactions/cancel.ts), or, when
 * the user picked the school, another school.
 */
function refusedPage(deps: InteractionDeps, details: Details, clientName: string, reason: Refusal, o: RefusalContext): string {
  const back = html`<form method="post" action="/interaction/${details.uid}/cancel">
  ${csrfField(csrfToken(deps.cookieKeys, details.uid))}
  <button type="submit">Go back to ${clientName}</button>
</form>`;
  const askAdult = html`<p class="muted">If you think your class should have it, ask your teacher or your school’s IT team.</p>`;
  if (reason === 'not_connected') {
    const school = o.organisation?.name ?? 'your school';
    return layout('Not available at your school', html`
<h1>This app is not available at your school</h1>
<p>${clientName} is not one of the apps ${school} uses${o.accountId ? ' for your account' : ''}, so you cannot sign in to it here.</p>
${askAdult}
${back}
${o.canChange ? html`<p><a href="/interaction/${details.uid}?change=1">Not ${school}? Choose another school</a></p>` : ''}
${forAdults('For your school’s IT team', html`<p>${school} has not connected ${clientName}${o.accountId ? ' for this kind of account' : ''}.</p>`, reason)}
`);
  }
  if (reason === 'sandbox_school') {
    return layout('Not available for the sandbox school', html`
<h1>Not available for the sandbox school</h1>
<p>${SANDBOX_SCHOOL_MESSAGE}</p>
${back}
${forAdults('For developers', html`<p>Only apps still in development sign in the sandbox school’s test users.</p>`, reason)}
`);
  }
  return layout(`${clientName} is not available yet`, html`
<h1>${clientName} is not available yet</h1>
<p>${clientName} is still being made, and schools cannot use it yet.</p>
${askAdult}
${back}
${forAdults('For the app’s developers', html`<p>${DEVELOPMENT_APP_MESSAGE} Its test users sign in to it when the request
leaves out the <code>organisation</code> parameter or says <code>organisation=${SANDBOX_SLUG}</code>.</p>`, reason)}
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
  method: StepMethod,
): Promise<LoginStep | undefined> {
  const details = await loadInteraction(deps, req, reply);
  if (!details) return undefined;
  const body = (req.method === 'POST' ? req.body ?? {} : {}) as Record<string, unknown>;
  if (req.method === 'POST' && !csrfValid(deps.cookieKeys, details.uid, body.csrf)) {
    sendHtml(reply, 403, errorPage('Cannot sign you in', 'This form has expired. Start again from the app, or from your school apps.', 'invalid_form', SCHOOL_APPS));
    return undefined;
  }
  if (details.prompt.name !== 'login') {
    sendHtml(reply, 400, errorPage('Cannot sign you in', 'This sign-in step is not expected now.', details.prompt.name));
    return undefined;
  }
  const choice = await organisationFor(deps, details, req.method === 'POST' ? body.org : req.query.org);
  if (choice.refused) {
    sendRefused(deps, req, reply, details, choice.clientName, choice.refused, { level: 'info', organisation: choice.organisation, canChange: choice.canChange });
    return undefined;
  }
  const { organisation } = choice;
  if (!organisation) {
    reply.redirect(`/interaction/${details.uid}`, 303);
    return undefined;
  }
  if (method === 'help_code' ? !offersHelpCodes(organisation) : !organisation.login.methods.includes(method)) {
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
    cancelLabel: choice.cancelLabel,
    canChangeOrganisation: choice.canChange,
    availability: choice.availability,
    t: translatorFor(req, reply, organisation.login.language),
    url: req.url,
  };
}
