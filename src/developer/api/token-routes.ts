import type { FastifyInstance } from 'fastify';
import { developerOf, tokenOf } from './auth.js';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_MAX_DAYS } from '../api-tokens.js';
import type { ApiContext } from './context.js';
import { type Confirmation, confirmDeveloper } from './reauthentication.js';
import { body, errors, noContent, okList, okRef, tokenParams } from './route-schemas.js';
import { tokenJson } from './views.js';

/**
 * Personal API tokens, managed with a token (as in the developer area's account page): list, create (with the
 * password or a fresh code again; the token is in the answer this once), revoke. A token may revoke itself.
 */
export function tokenRoutes(api: FastifyInstance, { deps, tokens }: ApiContext): void {
  api.get('/tokens', {
    schema: {
      tags: ['tokens'],
      operationId: 'listTokens',
      summary: 'List your API tokens',
      description: 'Oldest first, expired ones included until revoked.',
      response: { 200: okList('Your tokens, without their secrets.', 'ApiToken'), ...errors() },
    },
  }, async (req) => (await tokens.list(developerOf(req).id)).map(tokenJson));

  api.post<{ Body: { label: string; expires_in_days?: number } & Confirmation }>('/tokens', {
    schema: {
      tags: ['tokens'],
      operationId: 'createToken',
      summary: 'Create an API token',
      description: `The token is in this answer only: Lanyard keeps a hash. It expires after \`expires_in_days\` (default ${API_TOKEN_DEFAULT_DAYS}, at most ${API_TOKEN_MAX_DAYS}), and never after the token that creates it (else 400). `
        + 'A token acts as you, so making one asks for your current `password` again, or, with two-step sign-in on, a fresh `totp_code` (400 when missing, 403 when wrong, 429 after too many wrong tries). '
        + 'Every token of the account is revoked when its password or second factor changes or it signs out everywhere.',
      body: body('ApiTokenInput'),
      response: { 201: okRef('The new token, shown this once.', 'CreatedApiToken'), ...errors(400, 403, 409, 429) },
    },
  }, async (req, reply) => {
    const developer = developerOf(req);
    const input = { label: req.body.label, expiresInDays: req.body.expires_in_days };
    tokens.check(input, tokenOf(req).expiresAt); // a mistake is told before the password costs a try
    if (!(await confirmDeveloper(deps, req, reply, developer, req.body))) return reply;
    const { token, record } = await tokens.create(developer, input, tokenOf(req).expiresAt);
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
