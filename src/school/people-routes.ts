import type { FastifyInstance } from 'fastify';
import { sendHtml } from '../web/http.js';
import { personOf } from './access.js';
import { area } from './area.js';
import type { SchoolDeps } from './deps.js';
import { searchPeople } from './people-search.js';
import { showPerson } from './person-view.js';
import { schoolRequest } from './signed-in.js';
import { peoplePageBody } from './views/people-page.js';
import { schoolLayout } from './views/school-layout.js';

/**
 * The school's people, for its admins (docs/school-console.md → People and staff): `GET /school/:org/people`
 * (`?q=` a name or username, `&page=`), and a person's page `GET /school/:org/people/:userId` (for a teacher,
 * a pupil of their classes); what an admin does there posts to person-routes.ts, what a teacher does to
 * pupil-routes.ts.
 */
export function peopleRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  scope.get<{ Params: { org: string }; Querystring: { q?: unknown; page?: unknown } }>('/:org/people', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const query = typeof req.query.q === 'string' ? req.query.q : '';
    const page = typeof req.query.page === 'string' && /^\d{1,6}$/.test(req.query.page) ? Number(req.query.page) : 1;
    const found = await searchPeople(deps.store, s.school.organisation, query, page);
    const body = peoplePageBody(s.school.organisation.slug, found, { flash: area(deps).flash.take(req, reply) });
    return sendHtml(reply, 200, schoolLayout('People', body, s.who, s.school, 'people'));
  });

  // A teacher's too, for the pupils of their classes (personOf: anyone else is a 404); showPerson shows what each may do.
  scope.get<{ Params: { org: string; userId: string } }>('/:org/people/:userId', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org);
    if (!s) return reply;
    return showPerson(deps, req, reply, s, await personOf(deps.store, s.school, req.params.userId));
  });
}
