import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConnectionRefused } from '../clients/connections-service.js';
import { schoolApps } from '../clients/school-apps.js';
import { formField, sendHtml, seeOther } from '../web/http.js';
import type { SchoolAccess } from './access.js';
import { disconnectApp, moveApp, ownApp, setAppUserTypes } from './app-actions.js';
import { area } from './area.js';
import type { SchoolDeps } from './deps.js';
import { NotInSchoolError } from './errors.js';
import { schoolForm, schoolRequest, type StaffRequest } from './signed-in.js';
import { type AppPage, appView } from './views/app-view.js';
import { appsPath } from './views/apps-view.js';
import { schoolLayout } from './views/school-layout.js';

type AppParams = { Params: { org: string; clientId: string } };
type Signed = StaffRequest & { school: SchoolAccess };

/** What a school admin types for "only these user types": words split at commas and spaces; none is everyone. */
export const typedUserTypes = (text: string): string[] | undefined => {
  const types = text.toLowerCase().split(/[\s,;]+/).filter(Boolean);
  return types.length ? types : undefined;
};

/**
 * One of the school's apps in the console (docs/school-console.md → Apps), for its admins: who may use it
 * (user types), its place on the dashboard, and stopping using it. The configuration file's connections are
 * shown, not changed (they are the file's). Every change is recorded in the audit trail and answers 303.
 */
export function appRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const page = async (req: FastifyRequest, reply: FastifyReply, s: Signed, clientId: string, status = 200, refused?: AppPage['refused']) => {
    const org = s.school.organisation;
    const apps = await schoolApps(deps.store, org.id);
    const index = apps.findIndex((a) => a.client.clientId === clientId);
    if (index < 0) throw new NotInSchoolError();
    const body = appView({
      slug: org.slug, issuer: deps.issuer, csrf: s.who.csrf, app: apps[index]!, place: index + 1, places: apps.filter((a) => a.connection).length,
      message: area(deps).flash.take(req, reply), refused,
    });
    return sendHtml(reply, status, schoolLayout(apps[index]!.client.name, body, s.who, s.school, 'apps'));
  };
  const done = (reply: FastifyReply, s: Signed, to: string, message: string) => {
    area(deps).flash.set(reply, message);
    return seeOther(reply, to);
  };
  const appAddress = (s: Signed, clientId: string) => appsPath(s.school.organisation.slug, `/${encodeURIComponent(clientId)}`);

  scope.get<AppParams>('/:org/apps/:clientId', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org, { admin: true });
    return s ? page(req, reply, s, req.params.clientId) : reply;
  });

  scope.post<AppParams>('/:org/apps/:clientId/types', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const { client } = await ownApp(deps, s, req.params.clientId);
    const typed = formField(req.body, 'user_types');
    let userTypes: string[] | undefined;
    try {
      ({ userTypes } = await setAppUserTypes(deps, s, client.clientId, typedUserTypes(typed)));
    } catch (err) {
      if (!(err instanceof ConnectionRefused)) throw err;
      return page(req, reply, s, client.clientId, 400, { form: 'types', value: typed, message: 'Type user types as words of lowercase letters, such as student or teacher, separated by commas.' });
    }
    return done(reply, s, appAddress(s, client.clientId), userTypes ? `Only ${userTypes.join(', ')} may use ${client.name} now.` : `Everyone at the school may use ${client.name} now.`);
  });

  scope.post<AppParams>('/:org/apps/:clientId/move', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const { client } = await ownApp(deps, s, req.params.clientId);
    const typed = formField(req.body, 'place').trim();
    const place = /^[1-9][0-9]{0,3}$/.test(typed) ? Number(typed) : undefined;
    if (place === undefined) return page(req, reply, s, client.clientId, 400, { form: 'place', value: typed, message: 'Give the place as a number: 1 is the first.' });
    const { place: now } = await moveApp(deps, s, client.clientId, place);
    // From the list (Move up, Move down) back to the list; from the app's page, back to it.
    const fromList = formField(req.body, 'from') !== 'app';
    return done(reply, s, fromList ? `${appsPath(s.school.organisation.slug)}#connected` : appAddress(s, client.clientId), `${client.name} is in place ${now} on your school’s dashboards.`);
  });

  scope.post<AppParams>('/:org/apps/:clientId/disconnect', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const client = await disconnectApp(deps, s, req.params.clientId);
    return done(reply, s, `${appsPath(s.school.organisation.slug)}#connected`, `${client.name} is no longer on your school’s dashboards, and signs no one of the school in.`);
  });
}
