import type { FastifyInstance, FastifyRequest } from 'fastify';
import { noContent, okRef } from '../../http/openapi-parts.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/user-password.js';
import type { SchoolDeps } from '../deps.js';
import { generatePersonPassword, resetEmoji, setPersonPassword } from '../person-actions.js';
import { runPupilAction } from '../pupil-actions.js';
import { actingOn } from './acting.js';
import { errors, type PersonParams, personParams } from './route-schemas.js';

/** What POST …/password takes: exactly one of the two. */
const passwordBody = {
  description: 'Either `{"generate": true}` (Lanyard makes one up and answers it once) or `{"password": "…"}` (this one is set).',
  oneOf: [
    {
      type: 'object', required: ['generate'], additionalProperties: false,
      properties: { generate: { const: true, description: 'Make one up: 16 letters and digits in groups of four, about 79 bits.' } },
    },
    {
      type: 'object', required: ['password'], additionalProperties: false,
      properties: { password: { type: 'string', description: `The new password, ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.` } },
    },
  ],
} as const;

/**
 * A person's credentials (docs/school-console.md → People and staff, Helping a pupil), with the services the
 * console's pages call and their rules: a new emoji password (a teacher too, for their classes' pupils) or
 * password (school admins), for the school's own people only, never one's own, never someone who is staff at
 * another school too (400: access.ts mayChangeCredentials): in the answer only, the earlier one stops working and
 * the person is signed out everywhere; unlocking and voiding a badge, as the class page does for one pupil, by
 * the same rule.
 */
export function credentialRoutes(api: FastifyInstance, deps: SchoolDeps): void {
  api.post<{ Params: PersonParams }>('/schools/:org/people/:user_id/emoji', {
    schema: {
      tags: ['credentials'],
      operationId: 'resetEmojiPassword',
      summary: 'A new emoji password',
      description: 'Six pictures drawn at random, in this answer only, for the person to sign in with (print them, or show them). A teacher may for their classes’ pupils. '
        + '400 for oneself, a member from another school of the district, or someone who is staff at another school too (as for every credential here). No body.',
      params: personParams,
      response: { 200: okRef('The new emoji password, once.', 'EmojiPassword'), ...errors(400, 404) },
    },
  }, async (req) => {
    const { school, actor, person, via } = await actingOn(deps, req);
    return { user_id: person.id, emoji: await resetEmoji(deps, school, actor, person, { via }) };
  });

  api.post<{ Params: PersonParams; Body: { generate?: true; password?: string } }>('/schools/:org/people/:user_id/password', {
    schema: {
      tags: ['credentials'],
      operationId: 'setPassword',
      summary: 'A new password',
      description: 'Made up by Lanyard and answered once (`{"generate": true}`: 200), or the one sent (`{"password": "…"}`: 204; refused with 400 outside the password policy). School admins only.',
      params: personParams,
      body: passwordBody,
      response: { 200: okRef('The made-up password, once.', 'GeneratedPassword'), 204: noContent('The password sent is set.'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    const { school, actor, person, via } = await actingOn(deps, req, { admin: true });
    if (req.body.password === undefined) return { user_id: person.id, password: await generatePersonPassword(deps, school, actor, person, { via }) };
    await setPersonPassword(deps, school, actor, person, req.body.password, req.body.password, { via });
    return reply.code(204).send();
  });

  /** One of the class page's actions for this pupil alone (src/school/pupil-actions.ts). */
  const pupilAction = (action: 'unlock' | 'void-badges', req: FastifyRequest<{ Params: PersonParams }>) =>
    actingOn(deps, req).then(({ actor, school, person, via }) => runPupilAction(action, { deps, actor, school, via }, [person]));

  api.post<{ Params: PersonParams }>('/schools/:org/people/:user_id/unlock', {
    schema: {
      tags: ['credentials'],
      operationId: 'unlockPerson',
      summary: 'Unlock a person’s ways in',
      description: 'The ways in stopped after too many wrong tries (`locked_methods` of a pupil) work again, from any device. A teacher may for their classes’ pupils. No body.',
      params: personParams,
      response: { 204: noContent('Unlocked.'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    await pupilAction('unlock', req);
    return reply.code(204).send();
  });

  api.post<{ Params: PersonParams }>('/schools/:org/people/:user_id/badge/void', {
    schema: {
      tags: ['credentials'],
      operationId: 'voidBadge',
      summary: 'Void a person’s badge',
      description: 'Their badge no longer signs them in (a lost badge); print a new one in the console. Nothing to void is not an error. A teacher may for their classes’ pupils. No body.',
      params: personParams,
      response: { 204: noContent('No badge of theirs works any more.'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    await pupilAction('void-badges', req);
    return reply.code(204).send();
  });
}
