import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../adapters/store.js';
import { personName } from '../audit/audit-people.js';
import { formField, seeOther } from '../web/http.js';
import { personOf, type SchoolAccess } from './access.js';
import { area, type StaffSignedIn } from './area.js';
import type { SchoolDeps } from './deps.js';
import { SchoolInputError } from './errors.js';
import { generatePersonPassword, resetEmoji, restorePerson, setPersonPassword, suspendPerson } from './person-actions.js';
import { personPath, revealName, showPerson } from './person-view.js';
import { schoolForm } from './signed-in.js';
import { grantRole, isStaffRole, revokeRole } from './staff-roles.js';
import { ROLE_NAMES } from './views/person-admin-panel.js';
import { schoolPath } from './views/school-layout.js';

/**
 * What a school admin does on a person's page (docs/school-console.md → People and staff), each a form
 * (CSRF) answered 303 to the page with a message, or the page again with what to change:
 * `POST /school/:org/people/:userId/suspend | restore | emoji | password | roles`; `emoji` a teacher too, for a
 * pupil of their classes.
 */

interface Acting {
  who: StaffSignedIn;
  school: SchoolAccess;
  actor: User;
  user: User;
}

type Params = { Params: { org: string; userId: string } };

export function personRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  /** A person action: the admin's form checked, the person theirs (a 404 otherwise), then `work`. */
  const action = (name: string, work: (a: Acting, req: FastifyRequest<Params>, reply: FastifyReply) => Promise<FastifyReply>, o: { teachers?: boolean } = {}) =>
    scope.post<Params>(`/:org/people/:userId/${name}`, async (req, reply) => {
      const s = await schoolForm(deps, req, reply, req.params.org, { admin: !o.teachers });
      if (!s) return reply;
      const user = await personOf(deps.store, s.school, req.params.userId);
      const acting = { who: s.who, school: s.school, actor: s.who.account.user, user };
      try {
        return await work(acting, req, reply);
      } catch (err) {
        // Refused (oneself, another school's person, the last admin): the page again, saying why.
        if (err instanceof SchoolInputError && !err.fields.length) return showPerson(deps, req, reply, acting, user, { status: 400, error: err.message });
        throw err;
      }
    });
  const done = (a: Acting, reply: FastifyReply, message: string) => {
    area(deps).flash.set(reply, message);
    return seeOther(reply, personPath(a.school.organisation.slug, a.user.id));
  };

  action('suspend', async (a, _req, reply) => {
    await suspendPerson(deps, a.school, a.actor, a.user);
    return done(a, reply, `${personName(a.user)} is suspended: they cannot sign in, and are signed out everywhere.`);
  });

  action('restore', async (a, _req, reply) => {
    await restorePerson(deps, a.school, a.actor, a.user);
    return done(a, reply, `${personName(a.user)} can sign in again.`);
  });

  // A teacher too, for a pupil of their classes (docs/school-console.md → Helping a pupil).
  action('emoji', async (a, _req, reply) => {
    const names = await resetEmoji(deps, a.school, a.actor, a.user);
    await area(deps).reveals.set(reply, a.who.session.key, revealName('emoji', a.user.id), names.join(','));
    return done(a, reply, `${personName(a.user)} has a new emoji password: the old one no longer works.`);
  }, { teachers: true });

  action('password', async (a, req, reply) => {
    if (formField(req.body, 'how') === 'generate') {
      const plain = await generatePersonPassword(deps, a.school, a.actor, a.user);
      await area(deps).reveals.set(reply, a.who.session.key, revealName('password', a.user.id), plain);
      return done(a, reply, `${personName(a.user)} has a new password: the old one no longer works.`);
    }
    try {
      await setPersonPassword(deps, a.school, a.actor, a.user, formField(req.body, 'password'), formField(req.body, 'password_again'));
    } catch (err) {
      // What to change in the form, beside it; a refusal (no fields: mayChangeCredentials) at the top of the page.
      if (!(err instanceof SchoolInputError) || !err.fields.length) throw err;
      return showPerson(deps, req, reply, a, a.user, { status: 400, passwordError: { message: err.message, fields: err.fields } });
    }
    return done(a, reply, `The password you chose is set for ${personName(a.user)}: the old one no longer works.`);
  });

  action('roles', async (a, req, reply) => {
    const role = formField(req.body, 'role');
    const what = formField(req.body, 'action');
    if (!isStaffRole(role) || (what !== 'grant' && what !== 'revoke')) throw new SchoolInputError('Choose a role to give or withdraw.');
    if (what === 'grant') {
      const granted = await grantRole(deps, a.school, a.actor, a.user, role);
      return done(a, reply, granted ? `${personName(a.user)} is now ${ROLE_NAMES[role].toLowerCase()} here.` : `${personName(a.user)} already had this role.`);
    }
    await revokeRole(deps, a.school, a.actor, a.user, role);
    const message = `${personName(a.user)} is no longer ${ROLE_NAMES[role].toLowerCase()} here.`;
    if (a.user.id !== a.actor.id || role !== 'admin') return done(a, reply, message);
    // Their own admin role withdrawn: the admin pages are no longer theirs.
    area(deps).flash.set(reply, message);
    return seeOther(reply, schoolPath(a.school.organisation.slug));
  });
}
