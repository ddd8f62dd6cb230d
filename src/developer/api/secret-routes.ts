import type { FastifyInstance } from 'fastify';
import { actorOf } from '../actor.js';
import { developerOf } from './auth.js';
import type { ApiContext } from './context.js';
import { body, clientIdParams, type ClientIdParams, errors, noContent, okList, okRef, secretParams } from './route-schemas.js';
import { secretJson } from './views.js';

/**
 * Client secrets (SPEC: "the application can create many client secrets"): several active at once, so a
 * new one can be deployed before the old one is revoked. A secret is in the creating answer only, which
 * (like every answer here) is `Cache-Control: no-store`.
 */
export function secretRoutes(api: FastifyInstance, { apps }: ApiContext): void {
  api.get<{ Params: ClientIdParams }>('/apps/:client_id/secrets', {
    schema: {
      tags: ['secrets'],
      operationId: 'listSecrets',
      summary: 'List an app’s client secrets',
      description: 'Oldest first; labels and hints only, never the secrets.',
      params: clientIdParams,
      response: { 200: okList('The secrets.', 'ClientSecret'), ...errors(404) },
    },
  }, async (req) => (await apps.listSecrets(actorOf(developerOf(req)), req.params.client_id)).map(secretJson));

  api.post<{ Params: ClientIdParams; Body: { label: string; expires_at?: string } }>('/apps/:client_id/secrets', {
    schema: {
      tags: ['secrets'],
      operationId: 'createSecret',
      summary: 'Create a client secret',
      description: '256 random bits, in this answer only: Lanyard keeps a hash. It works at once, on every instance, alongside the app’s other secrets.',
      params: clientIdParams,
      body: body('ClientSecretInput'),
      response: { 201: okRef('The new secret, shown this once.', 'CreatedClientSecret'), ...errors(400, 404, 409) },
    },
  }, async (req, reply) => {
    const { secret, record } = await apps.createSecret(actorOf(developerOf(req)), req.params.client_id, {
      label: req.body.label, expiresAt: req.body.expires_at,
    });
    return reply.code(201).send({ ...secretJson(record), secret });
  });

  api.delete<{ Params: { client_id: string; secret_id: string } }>('/apps/:client_id/secrets/:secret_id', {
    schema: {
      tags: ['secrets'],
      operationId: 'revokeSecret',
      summary: 'Revoke a client secret',
      description: 'At once, on every instance: the token endpoint answers `invalid_client` to it from now on.',
      params: secretParams,
      response: { 204: noContent('Revoked.'), ...errors(404) },
    },
  }, async (req, reply) => {
    await apps.revokeSecret(actorOf(developerOf(req)), req.params.client_id, req.params.secret_id);
    return reply.code(204).send();
  });
}
