import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RequestRefused } from '../clients/school-app-requests.js';
import { formField, sendHtml, seeOther } from '../web/http.js';
import { approveApp, connectApp, declineApp } from './app-actions.js';
import { appChoices } from './app-choices.js';
import { area } from './area.js';
import type { SchoolDeps } from './deps.js';
import { schoolForm, schoolRequest, type StaffRequest } from './signed-in.js';
import type { SchoolAccess } from './access.js';
import { type AppsPage, appsPath, appsView } from './views/apps-view.js';
import { schoolLayout } from './views/school-layout.js';

type OrgParams = { Params: { org: string } };
type RequestParams = { Params: { org: string; clientId: string } };
type Signed = StaffRequest & { school: SchoolAccess };

/**
 * The school's apps in the console (docs/school-console.md → Apps), for its admins only (a teacher gets the
 * same 404 as anyone): the apps asking to be used, approved or declined here; the school's apps in the
 * dashboard's order; the configuration file's apps offered to every school, connected here. Every change is
 * recorded in the school's audit trail and answers 303 to the page.
 */
export function appsRoutes(scope: FastifyInstance, deps: SchoolDeps): void {
  const page = async (req: FastifyRequest, reply: FastifyReply, s: Signed, status = 200, extra: Partial<AppsPage> = {}) => {
    const slug = s.school.organisation.slug;
    const choices = await appChoices(deps, s.school.organisation);
    const body = appsView({ slug, issuer: deps.issuer, csrf: s.who.csrf, message: area(deps).flash.take(req, reply), ...extra }, choices);
    return sendHtml(reply, status, schoolLayout('Apps', body, s.who, s.school, 'apps'));
  };
  const done = (reply: FastifyReply, s: Signed, message: string, anchor = '') => {
    area(deps).flash.set(reply, message);
    return seeOther(reply, `${appsPath(s.school.organisation.slug)}${anchor}`);
  };

  scope.get<OrgParams>('/:org/apps', async (req, reply) => {
    const s = await schoolRequest(deps, req, reply, req.params.org, { admin: true });
    return s ? page(req, reply, s) : reply;
  });

  // An offered app, or a configuration-file app of every school (to choose who uses it and where it sits here).
  scope.post<OrgParams>('/:org/apps/connect', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const { client } = await connectApp(deps, s, formField(req.body, 'client_id'));
    return done(reply, s, `${client.name} is on your school’s dashboards now, for everyone: change who may use it below.`, '#connected');
  });

  scope.post<RequestParams>('/:org/apps/requests/:clientId/approve', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const client = await approveApp(deps, s, req.params.clientId);
    return done(reply, s, `${client.name} is on your school’s dashboards now, for everyone: change who may use it below.`, '#connected');
  });

  scope.post<RequestParams>('/:org/apps/requests/:clientId/decline', async (req, reply) => {
    const s = await schoolForm(deps, req, reply, req.params.org, { admin: true });
    if (!s) return reply;
    const clientId = req.params.clientId;
    const reason = formField(req.body, `reason-${clientId}`);
    let client;
    try {
      client = await declineApp(deps, s, clientId, reason);
    } catch (err) {
      if (!(err instanceof RequestRefused) || err.field !== 'reason') throw err;
      return page(req, reply, s, 400, { declineError: { clientId, message: err.message, reason } });
    }
    return done(reply, s, `You declined ${client.name}. Its developers can read your reason.`, '#asking');
  });
}
