import type { FastifyInstance, FastifyRequest } from 'fastify';
import { noContent, okRef } from '../../http/openapi-parts.js';
import type { SchoolDeps } from '../deps.js';
import { restorePerson, suspendPerson } from '../person-actions.js';
import { signPersonOut } from '../person-sign-out.js';
import { actingIn, actingOn, VIA_API } from './acting.js';
import { errors, type PersonParams, personParams } from './route-schemas.js';
import { personJson } from './views.js';

/**
 * What staff do to a person as a whole, with the services the console's pages call, each recorded in the
 * audit trail with the token's holder as actor (`via: api`).
 */
export function peopleRoutes(api: FastifyInstance, deps: SchoolDeps): void {
  /** An admin's action on a person of their school: a teacher, and anyone of another school, get 404. */
  const adminsPerson = (req: FastifyRequest<{ Params: PersonParams }>) => actingOn(deps, req, { admin: true });
  const now = async (id: string) => personJson((await deps.store.findUser(id))!);

  api.post<{ Params: PersonParams }>('/schools/:org/people/:user_id/sign-out', {
    schema: {
      tags: ['people'],
      operationId: 'signPersonOut',
      summary: 'Sign a person out everywhere',
      description: 'Ends every Lanyard session of the person and revokes what apps were given (their tokens stop working). A teacher may sign out their classes’ pupils; a school admin anyone of the school. No body.',
      params: personParams,
      response: { 204: noContent('Signed out.'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    const { school, actor } = actingIn(req);
    await signPersonOut(deps, school, actor, req.params.user_id, VIA_API);
    return reply.code(204).send();
  });

  api.post<{ Params: PersonParams }>('/schools/:org/people/:user_id/suspend', {
    schema: {
      tags: ['people'],
      operationId: 'suspendPerson',
      summary: 'Suspend a person',
      description: 'No sign-in by any method until restored; signed out everywhere. School admins only, for the school’s own people (a member from another school of the district is suspended there: 400), never themselves (400). Suspending someone suspended changes nothing. No body.',
      params: personParams,
      response: { 200: okRef('The person, suspended.', 'Person'), ...errors(400, 404) },
    },
  }, async (req) => {
    const { actor, school, person } = await adminsPerson(req);
    await suspendPerson(deps, school, actor, person, VIA_API);
    return now(person.id);
  });

  api.post<{ Params: PersonParams }>('/schools/:org/people/:user_id/restore', {
    schema: {
      tags: ['people'],
      operationId: 'restorePerson',
      summary: 'Restore a suspended person',
      description: 'They may sign in again (the sessions the suspension ended stay ended). School admins only, for the school’s own people. No body.',
      params: personParams,
      response: { 200: okRef('The person, no longer suspended.', 'Person'), ...errors(400, 404) },
    },
  }, async (req) => {
    const { actor, school, person } = await adminsPerson(req);
    await restorePerson(deps, school, actor, person, VIA_API);
    return now(person.id);
  });
}
