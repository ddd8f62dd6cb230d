import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { interactionsPublicDir, webPublicDir } from '../package-files.js';

const CSS = 'text/css; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';

/**
 * Front-end assets of every page, all served by Lanyard (no third-party CDN), read once at startup:
 * the shared style sheet and scripts (src/web/public), the sign-in screens' own (interactions/public).
 */
export function assetRoutes(app: FastifyInstance): void {
  const require = createRequire(import.meta.url);
  const assets = new Map<string, [string, Buffer]>([
    ['lanyard.css', [CSS, readFileSync(join(webPublicDir, 'lanyard.css'))]],
    ['dashboard.css', [CSS, readFileSync(join(webPublicDir, 'dashboard.css'))]],
    ['emoji-keyboard.css', [CSS, readFileSync(join(webPublicDir, 'emoji-keyboard.css'))]],
    ['class-tiles.css', [CSS, readFileSync(join(webPublicDir, 'class-tiles.css'))]],
    ['countdown.js', [JS, readFileSync(join(webPublicDir, 'countdown.js'))]],
    ['copy.js', [JS, readFileSync(join(webPublicDir, 'copy.js'))]],
    ['strip.js', [JS, readFileSync(join(webPublicDir, 'strip.js'))]],
    ['emoji.js', [JS, readFileSync(join(interactionsPublicDir, 'emoji.js'))]],
    ['badge.js', [JS, readFileSync(join(interactionsPublicDir, 'badge.js'))]],
    ['jsqr.js', [JS, readFileSync(require.resolve('jsqr/dist/jsQR.js'))]],
  ]);
  app.get<{ Params: { name: string } }>('/assets/:name', async (req, reply) => {
    const asset = assets.get(req.params.name);
    if (!asset) return reply.code(404).send({ error: 'not_found', error_description: 'no such asset' });
    return reply.type(asset[0]).header('Cache-Control', 'public, max-age=3600').send(asset[1]);
  });
}
