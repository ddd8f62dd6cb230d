import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { pagesAtIssuerHost } from '../web/issuer-host.js';
import { pageErrors, type PageErrorOptions } from '../web/page-errors.js';
import { SCHOOL_PATH } from './area.js';
import { schoolApi } from './api/index.js';
import { auditRoutes } from './audit-routes.js';
import type { SchoolDeps } from './deps.js';
import { accountRoutes } from './account/account-routes.js';
import { tokenRoutes } from './account/token-routes.js';
import { twoStepRoutes } from './account/two-step-routes.js';
import { appRoutes } from './app-routes.js';
import { appsRoutes } from './apps-routes.js';
import { classLinkRoutes } from './class-link-routes.js';
import { classRoutes } from './class-routes.js';
import { helpCodeRoutes } from './help-code-routes.js';
import { homeRoutes } from './home-routes.js';
import { peopleRoutes } from './people-routes.js';
import { personRoutes } from './person-routes.js';
import { pupilRoutes } from './pupil-routes.js';
import { rosterRoutes } from './roster-routes.js';
import { staffRoutes } from './staff-routes.js';
import { schoolNotFoundPage } from './not-found.js';
import { secondStepRoutes } from './second-step-routes.js';
import { signInRoutes } from './sign-in-routes.js';

/** The console's pages say no inside the console: what to change, or go back and try again. */
const CONSOLE_PAGES: PageErrorOptions = {
  serverError: 'Lanyard could not finish this. Please try again.',
  unreadable: 'The form could not be read. Go back and try again.',
  showLanyardMessages: true,
};

/**
 * The school console (docs/school-console.md): pages under /school for school admins and teachers, the same
 * actions as a JSON API under /school/api for school information systems and scripts. Who may do what is
 * decided in one place (access.ts); a school, class or person someone may not see is a 404 like any unknown
 * address.
 */
export async function schoolConsole(app: FastifyInstance, deps: SchoolDeps): Promise<void> {
  await app.register(async (pages) => {
    await pages.register(formbody, { bodyLimit: 64 * 1024 });
    const notFound = schoolNotFoundPage(deps);
    // Not theirs (NotInSchoolError), or not there: the same page, inside the console's frame.
    pageErrors(pages, { ...CONSOLE_PAGES, notFoundPage: notFound });
    pagesAtIssuerHost(pages, deps.issuer);
    pages.setNotFoundHandler((req, reply) => notFound(req, reply));
    signInRoutes(pages, deps);
    secondStepRoutes(pages, deps);
    homeRoutes(pages, deps);
    accountRoutes(pages, deps);
    twoStepRoutes(pages, deps);
    tokenRoutes(pages, deps);
    peopleRoutes(pages, deps);
    personRoutes(pages, deps);
    classRoutes(pages, deps);
    classLinkRoutes(pages, deps);
    pupilRoutes(pages, deps);
    staffRoutes(pages, deps);
    helpCodeRoutes(pages, deps);
    // The roster's upload takes a file (multipart): its parser only on its own routes.
    await pages.register(async (roster) => rosterRoutes(roster, deps));
    appsRoutes(pages, deps);
    appRoutes(pages, deps);
    auditRoutes(pages, deps);
  }, { prefix: SCHOOL_PATH });
  await app.register(async (api) => schoolApi(api, deps));
}

