import type { FastifyInstance } from 'fastify';
import type { StaffRole } from '../../../adapters/store.js';
import { schoolStaff } from '../../accounts/school-staff.js';
import { personName } from '../../audit/audit-people.js';
import { noContent, okList, okRef } from '../../http/openapi-parts.js';
import type { SchoolAccess } from '../access.js';
import type { SchoolDeps } from '../deps.js';
import { NotInSchoolError } from '../errors.js';
import { grantRole, revokeRole, staffCandidate } from '../staff-roles.js';
import { actingIn, actingOn } from './acting.js';
import { staffPersonJson } from './action-views.js';
import { errors, type OrgParams, orgParams, type StaffRoleParams, staffRoleParams } from './route-schemas.js';

const grantBody = {
  type: 'object',
  required: ['username', 'role'],
  additionalProperties: false,
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 200, description: 'Someone of the school, by username.' },
    role: { type: 'string', enum: ['admin', 'teacher'], description: '`admin`: the whole school (they must turn on two-step sign-in); `teacher`: the classes the roster gives them.' },
  },
} as const;

/**
 * The school's staff and roles (docs/school-console.md → People and staff), for its admins (a teacher gets
 * 404), with the services of the console's Staff page and its rules: no school admin withdraws their own admin
 * role while no other admin of the school could sign in (400).
 */
export function staffRoutes(api: FastifyInstance, deps: SchoolDeps): void {
  const staffOf = async (school: SchoolAccess, userId: string) =>
    (await schoolStaff(deps.store, school.organisation)).find((p) => p.user.id === userId);

  api.get<{ Params: OrgParams }>('/schools/:org/staff', {
    schema: {
      tags: ['staff'],
      operationId: 'listStaff',
      summary: 'The school’s staff',
      description: 'Everyone with a role at the school, by username: each role, and where it comes from (a grant, or the roster’s classes). School admins only.',
      params: orgParams,
      response: { 200: okList('The staff.', 'StaffPerson'), ...errors(400, 404) },
    },
  }, async (req) => (await schoolStaff(deps.store, actingIn(req, { admin: true }).school.organisation)).map(staffPersonJson));

  api.post<{ Params: OrgParams; Body: { username: string; role: StaffRole } }>('/schools/:org/staff', {
    schema: {
      tags: ['staff'],
      operationId: 'grantRole',
      summary: 'Give someone a role',
      description: 'Someone of the school (by username) becomes a school admin or a teacher there: 201, or 200 when they had the role. School admins only.',
      params: orgParams,
      body: grantBody,
      response: { 200: okRef('They had the role already.', 'StaffPerson'), 201: okRef('Granted.', 'StaffPerson'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    const { school, actor, via } = actingIn(req, { admin: true });
    const user = await staffCandidate(deps, school, req.body.username);
    const granted = await grantRole(deps, school, actor, user, req.body.role, { via });
    return reply.code(granted ? 201 : 200).send(staffPersonJson((await staffOf(school, user.id))!));
  });

  api.delete<{ Params: StaffRoleParams }>('/schools/:org/staff/:user_id/:role', {
    schema: {
      tags: ['staff'],
      operationId: 'revokeRole',
      summary: 'Withdraw a role',
      description: 'The grant of the role goes, whoever made it (teachers the roster enrols in classes stay teachers of those classes). 404 when they hold no such grant; '
        + '400 for your own admin role while no other admin of the school could sign in, and for an admin role while another is being withdrawn (try again). School admins only.',
      params: staffRoleParams,
      response: { 204: noContent('Withdrawn.'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    const { school, actor, person, via } = await actingOn(deps, req, { admin: true });
    if (!(await revokeRole(deps, school, actor, person, req.params.role, { via }))) {
      throw new NotInSchoolError(`${personName(person)} holds no ${req.params.role} grant here.`);
    }
    return reply.code(204).send();
  });
}
