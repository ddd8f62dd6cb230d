import type { FastifyInstance } from 'fastify';
import { findBadgeHolder } from '../src/badges/badges.js';
import { attemptSignIn } from './attempt.js';
import { afterBadge, postedBadgeCode } from './badge.js';
import { type PupilRoute, shownPupil, tappedStep } from './class-tiles.js';
import { type InteractionDeps, sendHtml } from './context.js';
import { badgeScanner } from './views/badge-scanner.js';
import { isolated } from './views/step-frame.js';

/**
 * /interaction/:uid/pupil/:pupilId/badge — the badge camera for the pupil whose name tile was tapped (class
 * sign-in, class-tiles.ts), at a school that uses badges. Only that pupil's badge signs in: a badge of anyone
 * else, like a badge of no one, is a wrong try (counted by the guessing protection as any wrong badge), and
 * the page says it is not the pupil's badge; the same words for both, so a badge of another pupil is never told
 * from a badge of no one. With badge + emoji, the pictures follow as after the ordinary badge screen.
 */
export function classTileBadgeRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  app.get<PupilRoute>('/:uid/pupil/:pupilId/badge', async (req, reply) => {
    const tap = await tappedStep(deps, req, reply, 'badge');
    if (!tap) return reply;
    const { step, pupil } = tap;
    return sendHtml(reply, 200, badgeScanner({ ...step, pupil: shownPupil(pupil) }));
  });

  app.post<PupilRoute>('/:uid/pupil/:pupilId/badge', async (req, reply) => {
    const tap = await tappedStep(deps, req, reply, 'badge');
    if (!tap) return reply;
    const { step, pupil } = tap;
    const code = postedBadgeCode(req.body);
    const notTheirs = step.t.t('classSignIn.notYourBadge', { name: isolated(pupil.label) });
    const signedIn = await attemptSignIn(deps, req, reply, step, {
      factor: 'badge',
      // Whose tile it was, for the audit trail (a badge's tries count against the device, not an account).
      username: pupil.username,
      usernameTyped: false,
      verify: async () => {
        const holder = await findBadgeHolder(deps.store, step.organisation, code);
        return holder?.id === pupil.id ? holder : undefined;
      },
      retry: (status, error) => badgeScanner({ ...step, pupil: shownPupil(pupil), error: status === 401 ? notTheirs : error }),
      final: !step.organisation.login.badgeRequiresEmoji,
    });
    return signedIn ? afterBadge(deps, req, reply, step, signedIn) : reply;
  });
}
