import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { publicDir } from '../src/paths.js';
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

  // Front-end assets, all served by Lanyard (no third-party CDN): read once at startup.
  const require = createRequire(import.meta.url);
  const assets = new Map<string, [string, Buffer]>([
    ['lanyard.css', ['text/css; charset=utf-8', readFileSync(join(publicDir, 'lanyard.css'))]],
    ['emoji.js', ['text/javascript; charset=utf-8', readFileSync(join(publicDir, 'emoji.js'))]],
    ['badge.js', ['text/javascript; charset=utf-8', readFileSync(join(publicDir, 'badge.js'))]],
    ['countdown.js', ['text/javascript; charset=utf-8', readFileSync(join(publicDir, 'countdown.js'))]],
    ['jsqr.js', ['text/javascript; charset=utf-8', readFileSync(require.resolve('jsqr/dist/jsQR.js'))]],
  ]);
  app.get<{ Params: { name: string } }>('/interaction-assets/:name', async (req, reply) => {
    const asset = assets.get(req.params.name);
    if (!asset) return reply.code(404).send({ error: 'not_found', error_description: 'no such asset' });
    return reply.type(asset[0]).header('Cache-Control', 'public, max-age=3600').send(asset[1]);
  });
}

export default fp(interactions, { name: 'lanyard-interactions' });
