import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../src/routes.js';

/**
 * Class sign-in's keyboard posts to `/interaction/:uid/pupil/:pupilId/emoji` (class-tiles.ts); its screen is
 * `/interaction/:uid/pupil/:pupilId`. A browser that asks for the form's address itself (reloading after a
 * wrong try, a language switch drawn from it, a bookmark) is sent to the screen, its query (the school, the
 * language) kept: 303, as after a form. The screen checks, as always, that this browser may see the pupil.
 */
export function pupilRedirects(app: FastifyInstance): void {
  app.get<{ Params: { uid: string; pupilId: string } }>('/:uid/pupil/:pupilId/emoji', async (req, reply) => {
    const q = req.url.indexOf('?');
    const query = q === -1 ? '' : req.url.slice(q);
    const to = `${ROUTES.interaction}/${encodeURIComponent(req.params.uid)}/pupil/${encodeURIComponent(req.params.pupilId)}${query}`;
    return reply.header('Cache-Control', 'no-store').redirect(to, 303);
  });
}
