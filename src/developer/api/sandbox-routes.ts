import type { FastifyInstance } from 'fastify';
import { sandboxCredentials } from '../sandbox.js';
import type { ApiContext } from './context.js';
import { errors, okRef } from './route-schemas.js';
import { sandboxJson } from './views.js';

/** GET /developer/api/sandbox: the school development apps sign in, and its test users' credentials. */
export function sandboxRoutes(api: FastifyInstance, { deps }: ApiContext): void {
  api.get('/sandbox', {
    schema: {
      tags: ['sandbox'],
      operationId: 'getSandbox',
      summary: 'The sandbox school and its test users',
      description: 'Sign these users in to try your app in development: a teacher, a pupil with an emoji password, a pupil with a badge, a pupil with a password and an admin. Test credentials, the same for every developer.',
      response: { 200: okRef('The sandbox school.', 'Sandbox'), ...errors() },
    },
  }, async () => sandboxJson(await sandboxCredentials(deps.store)));
}
