import type { FastifyInstance } from 'fastify';
import { actorOf } from '../actor.js';
import { developerOf } from './auth.js';
import type { ApiContext } from './context.js';
import { body, clientIdParams, type ClientIdParams, errors, noContent, okList, okRef } from './route-schemas.js';
import { invitationJson, listedAppJson } from './views.js';

/**
 * The invited developer's side of a team invitation: the ones not yet answered, accept (join the team as a
 * member, with access from then on) and decline (the invitation goes). No such invitation is 404. An account
 * whose address was never verified (open sign-up) accepts only with the invitation link's token (team-invitation-links.ts).
 */
export function invitationRoutes(api: FastifyInstance, { apps }: ApiContext): void {
  api.get('/invitations', {
    schema: {
      tags: ['team'],
      operationId: 'listInvitations',
      summary: 'List your team invitations',
      description: 'Invitations to apps’ teams that you have not accepted or declined yet, oldest first.',
      response: { 200: okList('Your pending invitations.', 'Invitation'), ...errors() },
    },
  }, async (req) => (await apps.invitations.list(actorOf(developerOf(req)))).map(invitationJson));

  api.post<{ Params: ClientIdParams; Body: { token?: string } }>('/invitations/:client_id/accept', {
    schema: {
      tags: ['team'],
      operationId: 'acceptInvitation',
      summary: 'Accept a team invitation',
      description: 'You join the app’s team as a member and may see and change it from now on. If your account was made by '
        + 'open sign-up (your address was never verified), send the invitation link’s token too: without it, 403; with one that is '
        + 'not this invitation’s, 404.',
      params: clientIdParams,
      body: body('InvitationAcceptInput'),
      response: { 200: okRef('The app, as you now see it.', 'App'), ...errors(400, 403, 404) },
    },
    // No body at all is an empty one: an account made through an invitation to the developer area needs none.
    preValidation: async (req) => { req.body ??= {}; },
  }, async (req) => {
    const actor = actorOf(developerOf(req));
    const { client, role } = await apps.invitations.accept(actor, req.params.client_id, req.body.token);
    return listedAppJson(client, role, actor);
  });

  api.post<{ Params: ClientIdParams }>('/invitations/:client_id/decline', {
    schema: {
      tags: ['team'],
      operationId: 'declineInvitation',
      summary: 'Decline a team invitation',
      description: 'The invitation is removed; the app’s owners see that you declined in its history.',
      params: clientIdParams,
      response: { 204: noContent('Declined.'), ...errors(404) },
    },
  }, async (req, reply) => {
    await apps.invitations.decline(actorOf(developerOf(req)), req.params.client_id);
    return reply.code(204).send();
  });
}
