import type { FastifyInstance } from 'fastify';
import { actorOf } from '../actor.js';
import { developerOf } from './auth.js';
import type { ApiContext } from './context.js';
import { body, clientIdParams, type ClientIdParams, errors, memberParams, noContent, okList, okRef } from './route-schemas.js';
import { memberJson } from './views.js';

/**
 * An app's team: the developer accounts that may see and change it. The owner invites (by email) and removes
 * members; a member may remove themself. An invited developer reaches nothing until they accept
 * (invitation-routes.ts). A removed member loses access at once (every request reads the team).
 */
export function teamRoutes(api: FastifyInstance, { apps }: ApiContext): void {
  api.get<{ Params: ClientIdParams }>('/apps/:client_id/team', {
    schema: {
      tags: ['team'],
      operationId: 'listTeam',
      summary: 'List an app’s team',
      description: 'Oldest member first, invited developers too (role `invited`) until they answer.',
      params: clientIdParams,
      response: { 200: okList('The team.', 'TeamMember'), ...errors(404) },
    },
  }, async (req) => (await apps.listTeam(actorOf(developerOf(req)), req.params.client_id)).map(memberJson));

  api.post<{ Params: ClientIdParams; Body: { email: string } }>('/apps/:client_id/team', {
    schema: {
      tags: ['team'],
      operationId: 'addTeamMember',
      summary: 'Invite a developer to the team',
      description: 'Owners only. The developer with an account of this email sees the invitation (on their apps page, and at '
        + '`GET /developer/api/invitations`) and joins the team only when they accept it; until then they reach nothing of the app. '
        + 'The answer is the same when no account has the address, so it tells nobody which addresses have accounts. The answer '
        + 'carries the invitation link to hand to them: a developer whose address Lanyard never verified (open sign-up) accepts only with it. '
        + 'An address holding an invisible, direction or control character is refused (400).',
      params: clientIdParams,
      body: body('TeamMemberInput'),
      response: { 202: okRef('The invitation is recorded (if an account has the address).', 'InvitationRecorded'), ...errors(400, 403, 404, 409) },
    },
  }, async (req, reply) => {
    const { email, link } = await apps.addTeamMember(actorOf(developerOf(req)), req.params.client_id, req.body.email);
    return reply.code(202).send({ email, status: 'invitation_recorded', link: link.url, link_expires_at: link.expiresAt.toISOString() });
  });

  api.delete<{ Params: { client_id: string; developer_id: string } }>('/apps/:client_id/team/:developer_id', {
    schema: {
      tags: ['team'],
      operationId: 'removeTeamMember',
      summary: 'Remove a developer from the team',
      description: 'Owners only, or a member removing themself; for an invited developer, this withdraws the invitation. The last owner cannot be removed.',
      params: memberParams,
      response: { 204: noContent('Removed: they lose access at once.'), ...errors(403, 404, 409) },
    },
  }, async (req, reply) => {
    await apps.removeTeamMember(actorOf(developerOf(req)), req.params.client_id, req.params.developer_id);
    return reply.code(204).send();
  });
}
