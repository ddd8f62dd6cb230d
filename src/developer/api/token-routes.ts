import type { FastifyInstance } from 'fastify';
import { developerOf, tokenOf } from './auth.js';
import type { ApiContext } from './context.js';
import { body, errors, noContent, okList, okRef, tokenParams } from './route-schemas.js';
import { tokenJson } from './views.js';

/**
 * Personal API tokens, managed with a token (as in the developer area's account page): list, create (the
 * token is in the answer this once), revoke. A token may revoke itself.
 */
export function tokenRoutes(api: FastifyInstance, { tokens }: ApiContext): void {
  api.get('/tokens', {
    schema: {
      tags: ['tokens'],
      operationId: 'listTokens',
      summary: 'List your API tokens',
      description: 'Oldest first, expired ones included until revoked.',
      response: { 200: okList('Your tokens, without their secrets.', 'ApiToken'), ...errors() },
    },
  }, async (req) => (await tokens.list(developerOf(req).id)).map(tokenJson));

  api.post<{ Body: { label: string; expires_in_days?: number } }>('/tokens', {
    schema: {
      tags: ['tokens'],
      operationId: 'createToken',
      summary: 'Create an API token',
      description: 'The token is in this answer only: Lanyard keeps a hash. It expires after `expires_in_days` (default 90, at most 365), and never after the token that creates it (else 400).',
      body: body('ApiTokenInput'),
      response: { 201: okRef('The new token, shown this once.', 'CreatedApiToken'), ...errors(400, 409) },
    },
  }, async (req, reply) => {
    const { token, record } = await tokens.create(developerOf(req), { label: req.body.label, expiresInDays: req.body.expires_in_days }, tokenOf(req).expiresAt);
    return reply.code(201).send({ ...tokenJson(record), token });
  });

  api.delete<{ Params: { token_id: string } }>('/tokens/:token_id', {
    schema: {
      tags: ['tokens'],
      operationId: 'revokeToken',
      summary: 'Revoke an API token',
      description: 'At once, on every instance.',
      params: tokenParams,
      response: { 204: noContent('Revoked.'), ...errors(404) },
    },
  }, async (req, reply) => {
    await tokens.revoke(developerOf(req), req.params.token_id);
    return reply.code(204).send();
  });
}
