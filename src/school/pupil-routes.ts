import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { maySignIn } from '../accounts/account-status.js';
import { personName } from '../audit/audit-people.js';
import { sendHtml } from '../web/http.js';
import { mayChangeCredentials, personOf } from './access.js';
import { answer } from './action-answer.js';
import type { SchoolDeps } from './deps.js';
import { emojiCard } from './emoji-card.js';
import { NotInSchoolError } from './errors.js';
import { personPath } from './person-view.js';
import { type Acting, CHANGES_CREDENTIALS, isPupilAction, PRINTS, runPupilAction } from './pupil-actions.js';
import { paperOf } from './selection.js';
import { schoolForm, schoolRequest } from './signed-in.js';
import { confirmPage } from './views/action-confirm.js';

type PersonParams = { Params: { org: string; userId: string } };

/**
 * What a teacher (or a school admin) does for one pupil from their page (docs/school-console.md → Helping a
 * pupil): `GET /school/:org/people/:userId/confirm?action=…` (the confirmation of a print or a void),
 * `POST …/:action` (the class's actions for this pupil alone: a print answers with its PDF, the others go back
 * to the page) and `POST …/emoji-card` (the card of the new emoji password just shown). A teacher reaches only
 * the pupils of their classes; anyone else is a 404 (access.ts personOf).
 */
export function pupilRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const personOfRequest = async (req: FastifyRequest<PersonParams>, reply: FastifyReply, form: boolean) => {
    const s = await (form ? schoolForm : schoolRequest)(deps, req, reply, req.params.org);
    if (!s) return undefined;
    const user = await personOf(deps.store, s.school, req.params.userId);
    const acting: Acting = { deps, actor: s.who.account.user, school: s.school };
    return { ...s, user, acting, path: (rest = '') => personPath(s.school.organisation.slug, user.id, rest) };
  };

  scope.get<PersonParams & { Querystring: { action?: string } }>('/:org/people/:userId/confirm', async (req, reply) => {
    const p = await personOfRequest(req, reply, false);
    if (!p) return reply;
    const { action } = req.query;
    if (!isPupilAction(action)) throw new NotInSchoolError();
    if (CHANGES_CREDENTIALS.has(action)) await mayChangeCredentials(deps.store, p.school, p.user, p.who.account.user);
    const name = personName(p.user);
    return sendHtml(reply, 200, confirmPage({
      who: p.who, school: p.school, action, whom: name, names: [name],
      leftOut: PRINTS.has(action) && !maySignIn(p.user) ? [name] : [],
      post: p.path(`/${action}`), fields: [], back: { href: p.path(), label: name },
    }));
  });

  scope.post<PersonParams>('/:org/people/:userId/emoji-card', async (req, reply) => {
    const p = await personOfRequest(req, reply, true);
    if (!p) return reply;
    const done = await emojiCard(p.acting, p.user, (req.body as Record<string, unknown> | undefined)?.pictures, paperOf(req.body));
    return answer(deps, reply, done, p.path());
  });

  scope.post<PersonParams & { Params: { action: string } }>('/:org/people/:userId/:action', async (req, reply) => {
    const { action } = req.params;
    if (!isPupilAction(action)) throw new NotInSchoolError();
    const p = await personOfRequest(req, reply, true);
    if (!p) return reply;
    const done = await runPupilAction(action, p.acting, [p.user], { paper: paperOf(req.body) });
    return answer(deps, reply, done, p.path());
  });
}
