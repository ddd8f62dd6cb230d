import type { FastifyInstance } from 'fastify';
import { okList } from '../../http/openapi-parts.js';
import { classOf, maySeeClass, schoolOf } from '../access.js';
import type { SchoolDeps } from '../deps.js';
import { pupilStatuses } from '../pupil-status.js';
import { memberOf } from './auth.js';
import { type ClassParams, classParams, errors, type OrgParams, orgParams } from './route-schemas.js';
import { classJson, pupilJson, schoolJson } from './views.js';

/** The token holder's schools, their classes, and a class's pupils: what a teacher sees, as JSON. */
export function schoolRoutes(api: FastifyInstance, deps: SchoolDeps): void {
  api.get('/schools', {
    schema: {
      tags: ['schools'],
      operationId: 'listSchools',
      summary: 'Your schools',
      description: 'The schools the token’s holder works in, by name, with their roles there.',
      response: { 200: okList('Your schools.', 'School'), ...errors() },
    },
  }, async (req) => memberOf(req).schools.map(schoolJson));

  api.get<{ Params: OrgParams }>('/schools/:org/classes', {
    schema: {
      tags: ['classes'],
      operationId: 'listClasses',
      summary: 'The classes you may see',
      description: 'A teacher’s own classes; every class of the school for a school admin.',
      params: orgParams,
      response: { 200: okList('The classes.', 'Class'), ...errors(400, 404) },
    },
  }, async (req) => {
    const school = schoolOf(memberOf(req), req.params.org);
    return (await deps.store.listClasses(school.organisation.id)).filter((c) => maySeeClass(school, c.id)).map(classJson);
  });

  api.get<{ Params: ClassParams }>('/schools/:org/classes/:class_id/pupils', {
    schema: {
      tags: ['classes'],
      operationId: 'listPupils',
      summary: 'A class’s pupils',
      description: 'By family then given name, with the ways in each has, whether one is locked, and their last sign-in.',
      params: classParams,
      response: { 200: okList('The pupils.', 'Pupil'), ...errors(400, 404) },
    },
  }, async (req) => {
    const school = schoolOf(memberOf(req), req.params.org);
    const klass = await classOf(deps.store, school, req.params.class_id);
    return (await pupilStatuses(deps, school, klass)).map(pupilJson);
  });
}
