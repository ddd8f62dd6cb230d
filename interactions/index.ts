import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { InteractionDeps } from './context.js';
import { badgeRoutes } from './badge.js';
import { cancelRoute } from './cancel.js';
import { emojiRoutes } from './emoji.js';
import { organisationRoutes } from './organisation.js';
import { passwordRoutes } from './password.js';

/**
 * The hosted login screens at /interaction/:uid. One module per login method (password.ts, emoji.ts,
 * badge.ts), sharing the organisation step (organisation.ts), the per-method preamble (login-step.ts) and
 * the guessing protection (attempt.ts).
 */
async function interactions(app: FastifyInstance, deps: InteractionDeps) {
  await app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 16 * 1024 });
    organisationRoutes(scope, deps);
    passwordRoutes(scope, deps);
    emojiRoutes(scope, deps);
    badgeRoutes(scope, deps);
    cancelRoute(scope, deps);
  });
}

export default fp(interactions, { name: 'lanyard-interactions' });
