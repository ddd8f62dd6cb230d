import type { FastifyInstance, FastifyRequest } from 'fastify';
import { csrfToken } from '../src/web/csrf.js';
import { type Details, finish, type InteractionDeps, loadInteraction, sendHtml } from './context.js';
import { rememberedSchool } from '../src/accounts/school-memory.js';
import { organisationFor, sendRefused } from './login-step.js';
import { findSchools, schoolQuery } from '../src/accounts/school-search.js';
import { errorPage } from '../src/web/error-page.js';
import { translatorFor } from '../src/web/i18n/choose-locale.js';
import { tilesFor } from './class-tiles.js';
import { methodChooser } from './views/method-chooser.js';
import { nameTiles } from './views/name-tiles.js';
import { organisationPicker } from './views/organisation-picker.js';

/**
 * GET /interaction/:uid — where every sign-in starts: the organisation picker when the app did not name an
 * organisation (search by name), then the class's name tiles where this browser may see them (class-tiles.ts),
 * else the organisation's ways of signing in (straight to the only one).
 */
export function organisationRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  app.get<{ Params: { uid: string }; Querystring: { q?: string; org?: string; change?: string; way?: string } }>('/:uid', async (req, reply) => {
    const details = await loadInteraction(deps, req, reply);
    if (!details) return reply;
    if (details.prompt.name === 'consent') {
      // Not expected (grant-loader.ts approves everything), but never leave a user stuck here.
      const grant = new deps.host.provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
      if (details.params.scope) grant.addOIDCScope(String(details.params.scope));
      return finish(deps, req, reply, { consent: { grantId: await grant.save() } });
    }
    if (details.prompt.name !== 'login') {
      const t = translatorFor(req, reply);
      return sendHtml(reply, 400, errorPage(t.t('errors.cannotSignIn'), t.t('errors.unsupportedStep'), details.prompt.name, undefined, undefined, t));
    }
    deps.devices.ensure(req, reply);
    // "Not your school?" (?change=1) and a search start from no school; otherwise the session's or the device's.
    const fallback = req.query.change || req.query.q !== undefined ? undefined : await defaultSchool(deps, details, req);
    const choice = await organisationFor(deps, details, req.query.org, fallback, (school) => translatorFor(req, reply, school));
    const { clientName, t } = choice;
    if (choice.refused) {
      return sendRefused(deps, req, reply, details, clientName, choice.refused, { level: 'info', organisation: choice.organisation, canChange: choice.canChange });
    }
    const { organisation } = choice;
    if (!organisation) {
      const q = schoolQuery(req.query.q);
      const results = await findSchools(deps.store, q);
      return sendHtml(reply, 200, organisationPicker(details.uid, clientName, q, results, { t, url: req.url }));
    }
    const frame = {
      uid: details.uid,
      csrf: csrfToken(deps.cookieKeys, details.uid),
      clientName,
      cancelLabel: choice.cancelLabel,
      organisation,
      canChangeOrganisation: choice.canChange,
      t,
      url: req.url,
    };
    // A classroom device set to a class, or a live class link: "Who are you?" first ("Sign in another way": ?way=any).
    if (req.query.way !== 'any') {
      const tiles = await tilesFor(deps, req, reply, organisation, t);
      if (tiles.length) return sendHtml(reply, 200, nameTiles({ ...frame, tiles }));
    }
    const { methods } = organisation.login;
    if (methods.length === 1) {
      return reply.redirect(`/interaction/${details.uid}/${methods[0]}?org=${encodeURIComponent(organisation.slug)}`, 303);
    }
    return sendHtml(reply, 200, methodChooser(frame));
  });
}

/** The school to start from when the app named none: the signed-in user's (signing in again), else the device's. */
async function defaultSchool(deps: InteractionDeps, details: Details, req: FastifyRequest): Promise<string | undefined> {
  const accountId = details.session?.accountId;
  const user = accountId ? await deps.store.findUser(accountId) : undefined;
  return user?.organisationId ?? rememberedSchool(deps.cookieKeys, req);
}
