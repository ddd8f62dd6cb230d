import type { FastifyInstance, FastifyReply } from 'fastify';
import { schoolStaff } from '../accounts/school-staff.js';
import { personName } from '../audit/audit-people.js';
import { formField, sendHtml, seeOther } from '../web/http.js';
import { personOf, type SchoolAccess } from './access.js';
import { area, type StaffSignedIn } from './area.js';
import type { SchoolDeps } from './deps.js';
import { SchoolInputError } from './errors.js';
import { schoolForm, schoolRequest } from './signed-in.js';
import { grantRole, isStaffRole, revokeRole, staffCandidate } from './staff-roles.js';
import { ROLE_NAMES } from './views/person-admin-panel.js';
import { schoolLayout, schoolPath } from './views/school-layout.js';
import { staffPageBody, type StaffPageOptions } from './views/staff-page.js';

/**
 * The school's staff and roles, for its admins (docs/school-console.md → People and staff):
 * `GET /school/:org/staff`, `POST /school/:org/staff` (give a role to someone of the school by username),
 * `POST /school/:org/staff/revoke` (withdraw one).
 */
export function staffRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const page = async (s: { who: StaffSignedIn; school: SchoolAccess }, reply: FastifyReply, o: Partial<StaffPageOptions> & { status?: number } = {}) => {
    const [staff, classes] = await Promise.all([schoolStaff(deps.store, s.school.organisation), deps.store.listClasses(s.school.organisation.id)]);
    const classTitles = new Map(classes.map((c) => [c.id, c.title]));
    const body = staffPageBody({ slug: s.school.organisation.slug, csrf: s.who.csrf, staff, classTitles, ...o });
    return sendHtml(reply, o.status ?? 200, schoolLayout('Staff and roles', body, s.who, s.school, 'people'));
  };
  const staffPath = (s: { school: SchoolAccess }) => schoolPath(s.school.organisation.slug, '/staff');

  scope.get<{ Params: { org: string } }>('/:org/staff', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    return page(s, reply, { flash: area(deps).flash.take(req, reply) });
  });

  scope.post<{ Params: { org: string } }>('/:org/staff', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const username = formField(req.body, 'username').trim();
    const role = formField(req.body, 'role');
    if (!isStaffRole(role)) throw new SchoolInputError('Choose a role to give.');
    let user;
    try {
      user = await staffCandidate(deps, s.school, username);
    } catch (err) {
      if (!(err instanceof SchoolInputError)) throw err;
      return page(s, reply, { status: 400, username, error: { message: err.message, fields: err.fields } });
    }
    const granted = await grantRole(deps, s.school, s.who.account.user, user, role);
    area(deps).flash.set(reply, granted ? `${personName(user)} is now ${ROLE_NAMES[role].toLowerCase()} here.` : `${personName(user)} already had this role.`);
    return seeOther(reply, staffPath(s));
  });

  scope.post<{ Params: { org: string } }>('/:org/staff/revoke', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const role = formField(req.body, 'role');
    if (!isStaffRole(role)) throw new SchoolInputError('Choose a role to withdraw.');
    const user = await personOf(deps.store, s.school, formField(req.body, 'user_id'));
    try {
      await revokeRole(deps, s.school, s.who.account.user, user, role);
    } catch (err) {
      if (err instanceof SchoolInputError) return page(s, reply, { status: 400, error: { message: err.message, fields: [] } });
      throw err;
    }
    area(deps).flash.set(reply, `${personName(user)} is no longer ${ROLE_NAMES[role].toLowerCase()} here.`);
    return seeOther(reply, user.id === s.who.account.id && role === 'admin' ? schoolPath(s.school.organisation.slug) : staffPath(s));
  });
}
