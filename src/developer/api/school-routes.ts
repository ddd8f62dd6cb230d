import type { FastifyInstance } from 'fastify';
import type { Organisation } from '../../../adapters/store.js';
import { schoolQuery } from '../../accounts/school-search.js';
import type { SchoolStanding } from '../../clients/school-app-requests.js';
import { actorOf } from '../actor.js';
import { developerOf } from './auth.js';
import type { ApiContext } from './context.js';
import { body, clientIdParams, type ClientIdParams, errors, ok, okList } from './route-schemas.js';
import { ref } from './schema-parts.js';

const schoolJson = (o: Pick<Organisation, 'id' | 'slug' | 'name'>) => ({ id: o.id, slug: o.slug, name: o.name });

/** Where the app stands with a school, values it does not have left out. */
export const appSchoolJson = (s: SchoolStanding) => ({
  school: schoolJson(s.organisation),
  status: s.status,
  ...(s.connection ? { connected_at: s.connection.createdAt } : {}),
  ...(s.request ? { asked_at: s.request.requestedAt } : {}),
  ...(s.request?.note ? { note: s.request.note } : {}),
  ...(s.request?.answeredAt ? { answered_at: s.request.answeredAt } : {}),
  ...(s.request?.answer ? { reason: s.request.answer } : {}),
});

/**
 * Schools (docs/developer-area.md → Asking a school): finding one by name, a live app's schools, and an
 * owner asking a school to use the app. The school's admins answer in their school console.
 */
export function schoolRoutes(api: FastifyInstance, { apps }: ApiContext): void {
  api.get<{ Querystring: { q?: string } }>('/schools', {
    schema: {
      tags: ['schools'],
      operationId: 'searchSchools',
      summary: 'Find schools by name',
      description: 'Up to 20 schools whose name contains `q`; none without it. The sandbox school is never listed.',
      querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 200, description: 'A part of the school’s name.' } } },
      response: { 200: okList('The schools found.', 'School'), ...errors(400) },
    },
  }, async (req) => (await apps.schools.search(schoolQuery(req.query.q))).map(schoolJson));

  api.get<{ Params: ClientIdParams }>('/apps/:client_id/schools', {
    schema: {
      tags: ['schools'],
      operationId: 'listAppSchools',
      summary: 'An app’s schools',
      description: 'The schools that use the app, then those it asked: waiting for an answer, or declined with the school’s reason.',
      params: clientIdParams,
      response: { 200: okList('The app’s schools.', 'AppSchool'), ...errors(404) },
    },
  }, async (req) => (await apps.schools.of(await apps.getApp(actorOf(developerOf(req)), req.params.client_id))).map(appSchoolJson));

  api.post<{ Params: ClientIdParams; Body: { organisation: string; note?: string } }>('/apps/:client_id/schools', {
    schema: {
      tags: ['schools'],
      operationId: 'askSchool',
      summary: 'Ask a school to use the app',
      description: 'Owners of a live app only (a development app asks no school: 409). The school’s admins see the request in their school console, '
        + 'with what the app receives, and approve or decline it. A school is asked once: 409 when it was asked already, declined, or uses the app.',
      params: clientIdParams,
      body: body('AppSchoolRequestInput'),
      response: { 201: ok('The request, waiting for the school.', ref('AppSchool')), ...errors(400, 403, 404, 409) },
    },
  }, async (req, reply) => {
    const actor = actorOf(developerOf(req));
    const app = await apps.getApp(actor, req.params.client_id);
    const request = await apps.schools.ask(actor, app, req.body.organisation, req.body.note);
    const organisation = (await apps.deps.store.findOrganisation(request.organisationId))!;
    return reply.code(201).send(appSchoolJson({ organisation, status: 'pending', request }));
  });
}
