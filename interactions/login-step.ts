import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginMethod, Organisation } from '../adapters/store.js';
import { offersHelpCodes } from '../src/accounts/help-codes.js';
import { csrfToken, csrfValid } from '../src/web/csrf.js';
import { type Details, type InteractionDeps, loadInteraction, sendHtml } from './context.js';
import { errorPage, schoolApps } from '../src/web/error-page.js';
import { type Availability, availabilityOf, namesSandboxOrNone, type Refusal, schoolRefusal } from '../src/clients/app-availability.js';
import type { Locale } from '../src/formats/locales.js';
import { translatorFor } from '../src/web/i18n/choose-locale.js';
import { ENGLISH, type Translator } from '../src/web/i18n/translator.js';
import { type RefusalContext, refusedPage } from './views/refused-page.js';

/**
 * A screen of the sign-in: one of the school's login methods, or a help code, which every school offers
 * (docs/childrens-sign-in.md → Help codes: src/accounts/help-codes.ts offersHelpCodes).
 */
export type StepMethod = LoginMethod | 'help_code';

export type { RefusalContext };

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
  /** This screen's address for the language switch (switchAddress). */
  url: string;
}

/**
 * The address the language switch reopens a screen at: a GET's as asked. A screen drawn after a POST (a wrong
 * try, a keyboard's tap without its script) is reopened at its GET address with its school (`?org=`, which the
 * form carried in its body: without it a pupil would be asked for their school again). Every step's form posts
 * to its own screen's address, save the tapped pupil's keyboard (class-tiles.ts), whose screen is
 * `/pupil/:pupilId` (and its form's address sends a GET there: pupil-redirects.ts).
 */
export function switchAddress(req: FastifyRequest, school: Organisation): string {
  if (req.method === 'GET' || req.method === 'HEAD') return req.url;
  const q = req.url.indexOf('?');
  const path = (q === -1 ? req.url : req.url.slice(0, q)).replace(/(\/pupil\/[^/]+)\/emoji$/, '$1');
  return `${path}?org=${encodeURIComponent(school.slug)}`;
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
  /** The screens' language, given the organisation (its setting counts: `speak`); the names above are in it. */
  t: Translator;
}

/** The screens' language given the school's setting (translatorFor with the request: the switch and the browser count too). */
export type Speak = (school: Locale | undefined) => Translator;

/**
 * The app as the sign-in screens name it ("Signing in to …", "Cancel and go back to …"). Lanyard's own
 * pages (the dashboard, a classroom device: src/clients/builtin-clients.ts) are "your school apps": a
 * pupil is on Lanyard already, and "Signing in to Lanyard" would tell them nothing.
 */
const shownClientName = (client: Availability['client'], t: Translator): string =>
  (client?.source === 'builtin' ? t.t('signIn.app.builtin') : client?.name ?? t.t('signIn.app.unknown'));

/**
 * The cancel button's words: "Cancel and go back to <app>", where the app is someone else's. On Lanyard's own
 * pages, cancelling goes back to where the user started (finding their school, or the classroom device page),
 * where nothing is signed in yet, so "go back to your school apps" would promise what is not there: "Cancel".
 */
const cancelLabel = (client: Availability['client'], t: Translator): string =>
  (client?.source === 'builtin' ? t.t('signIn.cancel') : t.t('signIn.cancelAndBack', { app: shownClientName(client, t) }));

/**
 * The organisation this login is for: the one the app named (SPEC: authorize `organisation`) wins. An app
 * still in development signs in only the sandbox school’s users (src/clients/app-availability.ts): it
 * goes straight to the sandbox school, and naming another school is refused. Otherwise the user's choice
 * (`chosen`), else `fallback` (the school of the session's user, or the one this device remembers:
 * src/accounts/school-memory.ts), which the user may change. A school that does not use the app is
 * refused with its own page; a live app's user who lands on the sandbox school goes back to the picker.
 * The app's name and the cancel button are in the language `speak` gives for the organisation decided.
 */
export async function organisationFor(
  deps: InteractionDeps, details: Details, chosen: unknown, fallback?: string, speak: Speak = () => ENGLISH,
): Promise<OrganisationChoice> {
  const choice = await decideOrganisation(deps, details, chosen, fallback);
  const t = speak(choice.organisation?.login.language);
  const { client } = choice.availability;
  return { ...choice, t, clientName: shownClientName(client, t), cancelLabel: cancelLabel(client, t) };
}

async function decideOrganisation(
  deps: InteractionDeps, details: Details, chosen: unknown, fallback: string | undefined,
): Promise<Omit<OrganisationChoice, 't' | 'clientName' | 'cancelLabel'>> {
  const named = details.params.organisation as string | undefined;
  const availability = await availabilityOf(deps, String(details.params.client_id));
  const decided = { availability };
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

/** Answers a sign-in no one may complete here: logged (`login.refused`), then the page (views/refused-page.ts), 403. */
export function sendRefused(
  deps: InteractionDeps, req: FastifyRequest, reply: FastifyReply, details: Details, clientName: string, reason: Refusal,
  o: RefusalContext = { level: 'info' },
): FastifyReply {
  const { level, accountId } = o;
  req.log[level]({
    event: 'login.refused', reason, clientId: details.params.client_id,
    ...(o.organisation ? { organisation: o.organisation.slug } : {}), ...(accountId ? { accountId } : {}),
  }, 'sign-in refused for this app');
  const t = translatorFor(req, reply, o.organisation?.login.language);
  return sendHtml(reply, 403, refusedPage({ ...o, uid: details.uid, csrf: csrfToken(deps.cookieKeys, details.uid), clientName, reason, t, url: req.url }));
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
  // Before the school is known: the switch's or the browser's language.
  const early = translatorFor(req);
  if (req.method === 'POST' && !csrfValid(deps.cookieKeys, details.uid, body.csrf)) {
    sendHtml(reply, 403, errorPage(early.t('errors.cannotSignIn'), early.t('errors.formExpired'), 'invalid_form', schoolApps(early), undefined, early));
    return undefined;
  }
  if (details.prompt.name !== 'login') {
    sendHtml(reply, 400, errorPage(early.t('errors.cannotSignIn'), early.t('errors.unexpectedStep'), details.prompt.name, undefined, undefined, early));
    return undefined;
  }
  const choice = await organisationFor(deps, details, req.method === 'POST' ? body.org : req.query.org, undefined,
    (school) => translatorFor(req, reply, school));
  const { t } = choice;
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
    sendHtml(reply, 404, errorPage(t.t('errors.notAvailable'), t.t('errors.methodDisabled', { school: organisation.name }), 'method_disabled', undefined, undefined, t));
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
    t,
    url: switchAddress(req, organisation),
  };
}
