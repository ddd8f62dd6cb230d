import type { FastifyInstance } from 'fastify';
import { personName } from '../../audit/audit-people.js';
import { noContent, okList, okRef } from '../../http/openapi-parts.js';
import { classOf } from '../access.js';
import type { SchoolDeps } from '../deps.js';
import { NotInSchoolError } from '../errors.js';
import { cancelHelpCode, issueHelpCode, liveHelpCodes } from '../help-code-actions.js';
import { actingIn } from './acting.js';
import { helpCodeJson } from './action-views.js';
import { errors, type OrgParams, orgParams, type PersonParams, personParams } from './route-schemas.js';

/**
 * Help codes (docs/school-console.md → Help codes) with the services the console's pages call: a teacher for
 * their classes' pupils, a school admin for anyone of the school; anyone else is a 404.
 */
export function helpCodeRoutes(api: FastifyInstance, deps: SchoolDeps): void {
  api.post<{ Params: PersonParams }>('/schools/:org/people/:user_id/help-code', {
    schema: {
      tags: ['help codes'],
      operationId: 'issueHelpCode',
      summary: 'Give a pupil a help code',
      description: 'A one-time code of six digits the pupil types, with their username, instead of their credential; until the end of the school day and at most 8 hours. '
        + 'It replaces their earlier code. The code is in this answer only. Refused (400) for someone suspended or held by the roster, and for a member '
        + 'of the school’s classes whose own school is another. No body.',
      params: personParams,
      response: { 201: okRef('The code, once.', 'IssuedHelpCode'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    const { school, actor, via } = actingIn(req);
    const given = await issueHelpCode(deps, school, actor, req.params.user_id, { via });
    return reply.code(201).send({ user_id: given.pupil.id, code: given.code, expires_at: given.expiresAt.toISOString() });
  });

  api.delete<{ Params: PersonParams }>('/schools/:org/people/:user_id/help-code', {
    schema: {
      tags: ['help codes'],
      operationId: 'cancelHelpCode',
      summary: 'Cancel a pupil’s help code',
      description: 'Their live code stops working at once. 404 when they have none.',
      params: personParams,
      response: { 204: noContent('Cancelled.'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    const { school, actor, via } = actingIn(req);
    const { pupil, cancelled } = await cancelHelpCode(deps, school, actor, req.params.user_id, { via });
    if (!cancelled) throw new NotInSchoolError(`${personName(pupil)} has no help code.`);
    return reply.code(204).send();
  });

  api.get<{ Params: OrgParams; Querystring: { class_id?: string } }>('/schools/:org/help-codes', {
    schema: {
      tags: ['help codes'],
      operationId: 'listHelpCodes',
      summary: 'The live help codes',
      description: 'The codes not yet used nor expired, soonest to expire first: a teacher’s for their classes’ pupils, a school admin’s for the whole school. Never the codes themselves.',
      params: orgParams,
      querystring: {
        type: 'object', additionalProperties: false,
        properties: { class_id: { type: 'string', minLength: 1, maxLength: 200, description: 'Only this class’s pupils (its id or sourcedId).' } },
      },
      response: { 200: okList('The codes.', 'HelpCode'), ...errors(400, 404) },
    },
  }, async (req) => {
    const { school } = actingIn(req);
    const inClass = req.query.class_id ? await classOf(deps.store, school, req.query.class_id) : undefined;
    return (await liveHelpCodes(deps, school, inClass)).map(helpCodeJson);
  });
}
