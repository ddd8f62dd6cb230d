import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ROUTES } from '../src/routes.js';
import { expiredPage } from '../src/web/error-page.js';
import { sendHtml } from '../src/web/http.js';
import { translatorFor } from '../src/web/i18n/choose-locale.js';
import { pagesAtIssuerHost } from '../src/web/issuer-host.js';
import { pageErrors, SCHOOL_PAGES } from '../src/web/page-errors.js';
import type { InteractionDeps } from './context.js';
import { badgeRoutes } from './badge.js';
import { cancelRoute } from './cancel.js';
import { classTileBadgeRoutes } from './class-tile-badge.js';
import { classTileRoutes } from './class-tiles.js';
import { emojiRoutes } from './emoji.js';
import { helpCodeRoutes } from './help-code.js';
import { organisationRoutes } from './organisation.js';
import { passwordRoutes } from './password.js';
import { pupilRedirects } from './pupil-redirects.js';

/**
 * The hosted login screens at /interaction/:uid (the routes are written under that prefix). One module per login method (password.ts, emoji.ts,
 * badge.ts, and help-code.ts for a code from a member of staff), sharing the organisation step (organisation.ts), the per-method preamble (login-step.ts) and
 * the guessing protection (attempt.ts).
 */
async function interactions(app: FastifyInstance, deps: InteractionDeps) {
  await app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 16 * 1024 });
    pageErrors(scope, SCHOOL_PAGES);
    pagesAtIssuerHost(scope, deps.issuer);
    // An interaction's address that is not a step: it is over (finished, expired, or never was).
    scope.setNotFoundHandler((req, reply) => sendHtml(reply, 404, expiredPage(translatorFor(req), req.url)));
    organisationRoutes(scope, deps);
    passwordRoutes(scope, deps);
    emojiRoutes(scope, deps);
    badgeRoutes(scope, deps);
    helpCodeRoutes(scope, deps);
    classTileRoutes(scope, deps);
    classTileBadgeRoutes(scope, deps);
    pupilRedirects(scope);
    cancelRoute(scope, deps);
  }, { prefix: ROUTES.interaction });
}

export default fp(interactions, { name: 'lanyard-interactions' });
