import type { FastifyInstance } from 'fastify';
import { spacedClassCode } from '../../accounts/class-links.js';
import { noContent, okList, okRef } from '../../http/openapi-parts.js';
import { ROUTES } from '../../routes.js';
import { classOf } from '../access.js';
import { liveClassLinks, makeClassLink, revokeClassLink } from '../class-link-actions.js';
import type { SchoolDeps } from '../deps.js';
import { NotInSchoolError, SchoolInputError } from '../errors.js';
import { actingIn } from './acting.js';
import { type ClassLinkBody, classLinkBody } from './class-link-schemas.js';
import { type ClassParams, classParams, errors } from './route-schemas.js';

const linkParams = {
  ...classParams,
  required: [...classParams.required, 'link_id'],
  properties: { ...classParams.properties, link_id: { type: 'string', minLength: 1, maxLength: 200, description: 'The link’s `id`.' } },
} as const;

/** When a link asked for with `body` ends: the console's lengths are makeClassLink's to turn into an instant. */
function endOf(body: ClassLinkBody, now: Date): Date | Extract<ClassLinkBody, { length: unknown }>['length'] {
  if ('length' in body) return body.length;
  if ('minutes' in body) return new Date(now.getTime() + body.minutes * 60_000);
  const until = new Date(body.until);
  if (!(until.getTime() > now.getTime())) throw new SchoolInputError('A class link must end in the future.', [{ path: 'until', message: 'must be in the future' }]);
  return until;
}

/**
 * Class links (docs/school-console.md → Class links) with the services the console's panel calls and its rules:
 * a teacher of the class or a school admin (access.ts classOf; anyone else a 404) makes one and gets its code
 * and link in the answer only, lists the class's live links, and revokes one at once.
 */
export function classLinkRoutes(api: FastifyInstance, deps: SchoolDeps): void {
  api.post<{ Params: ClassParams; Body: ClassLinkBody }>('/schools/:org/classes/:class_id/links', {
    schema: {
      tags: ['class links'],
      operationId: 'makeClassLink',
      summary: 'Make a class link',
      description: 'A link (and class code) that opens the class’s name tiles on any device until it ends, for pupils to tap their name instead of typing a username. '
        + 'The code is in this answer only. A teacher may for their classes; a school admin for any class of the school.',
      params: classParams,
      body: classLinkBody,
      response: { 201: okRef('The link and its code, once.', 'MadeClassLink'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    const { school, actor, via } = actingIn(req);
    const klass = await classOf(deps.store, school, req.params.class_id);
    const { link, code } = await makeClassLink(deps, school, actor, klass, endOf(req.body, deps.clock.now()), { via });
    return reply.code(201).send({
      id: link.id, class_id: klass.id, code: spacedClassCode(code), url: `${deps.issuer}${ROUTES.classLink}/${code}`, expires_at: link.expiresAt,
    });
  });

  api.get<{ Params: ClassParams }>('/schools/:org/classes/:class_id/links', {
    schema: {
      tags: ['class links'],
      operationId: 'listClassLinks',
      summary: 'A class’s live class links',
      description: 'The links not yet ended nor revoked, newest first, with who made each. Never the codes.',
      params: classParams,
      response: { 200: okList('The live links.', 'ClassLink'), ...errors(400, 404) },
    },
  }, async (req) => {
    const { school } = actingIn(req);
    const klass = await classOf(deps.store, school, req.params.class_id);
    return (await liveClassLinks(deps, school, klass)).map((l) => ({
      id: l.id, class_id: klass.id, made_by: l.madeBy, created_at: l.createdAt.toISOString(), expires_at: l.expiresAt.toISOString(),
    }));
  });

  api.delete<{ Params: ClassParams & { link_id: string } }>('/schools/:org/classes/:class_id/links/:link_id', {
    schema: {
      tags: ['class links'],
      operationId: 'revokeClassLink',
      summary: 'Revoke a class link',
      description: 'The link and its code open nothing from now on, on every instance, and browsers that opened it show no names. 404 when the class has no such live link.',
      params: linkParams,
      response: { 204: noContent('Revoked.'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    const { school, actor, via } = actingIn(req);
    const klass = await classOf(deps.store, school, req.params.class_id);
    if (!(await revokeClassLink(deps, school, actor, klass, req.params.link_id, { via }))) throw new NotInSchoolError(`${klass.title} has no such live class link.`);
    return reply.code(204).send();
  });
}
