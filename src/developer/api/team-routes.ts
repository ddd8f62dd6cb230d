import type { FastifyInstance } from 'fastify';
import { actorOf } from '../actor.js';
import { developerOf } from './auth.js';
import type { ApiContext } from './context.js';
import { BEARER, body, clientIdParams, errors, memberParams, noContent, okList, okRef } from './route-schemas.js';
import { memberJson } from './views.js';

/**
 * An app's team: the developer accounts that may see and change it. The owner adds and removes members;
 * a member may remove themself. A removed member loses access at once (every request reads the team).
 */
export function teamRoutes(api: FastifyInstance, { apps }: ApiContext): void {
  api.get<{ Params: { client_id: string } }>('/apps/:client_id/team', {
    schema: {
      tags: ['team'],
      operationId: 'listTeam',
      summary: 'List an app’s team',
      description: 'Oldest member first.',
      security: BEARER,
      params: clientIdParams,
      response: { 200: okList('The team.', 'TeamMember'), ...errors(404) },
    },
  }, async (req) => (await apps.listTeam(actorOf(developerOf(req)), req.params.client_id)).map(memberJson));

  api.post<{ Params: { client_id: string }; Body: { email: string } }>('/apps/:client_id/team', {
    schema: {
      tags: ['team'],
      operationId: 'addTeamMember',
      summary: 'Add a developer to the team',
      description: 'Owners only. The developer must already have an account (see `lanyard developers invite`).',
      security: BEARER,
      params: clientIdParams,
      body: body('TeamMemberInput'),
      response: { 201: okRef('The new member.', 'TeamMember'), ...errors(400, 403, 404, 409) },
    },
  }, async (req, reply) => {
    const member = await apps.addTeamMember(actorOf(developerOf(req)), req.params.client_id, req.body.email);
    return reply.code(201).send(memberJson(member));
  });

  api.delete<{ Params: { client_id: string; developer_id: string } }>('/apps/:client_id/team/:developer_id', {
    schema: {
      tags: ['team'],
      operationId: 'removeTeamMember',
      summary: 'Remove a developer from the team',
      description: 'Owners only, or a member removing themself. The last owner cannot be removed.',
      security: BEARER,
      params: memberParams,
      response: { 204: noContent('Removed: they lose access at once.'), ...errors(403, 404, 409) },
    },
  }, async (req, reply) => {
    await apps.removeTeamMember(actorOf(developerOf(req)), req.params.client_id, req.params.developer_id);
    return reply.code(204).send();
  });
}
