import type { FastifyInstance } from 'fastify';
import { developerOf } from './auth.js';
import { errors, okRef } from './route-schemas.js';
import { meJson } from './views.js';

/** GET /developer/api/me: who the token belongs to (a script's first call, to check its token). */
export function accountRoutes(api: FastifyInstance): void {
  api.get('/me', {
    schema: {
      tags: ['account'],
      operationId: 'getMe',
      summary: 'The developer account the token belongs to',
      response: { 200: okRef('The account.', 'Me'), ...errors() },
    },
  }, async (req) => meJson(developerOf(req)));
}
