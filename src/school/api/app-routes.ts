import type { FastifyInstance } from 'fastify';
import { schoolApps } from '../../clients/school-apps.js';
import { DECLINE_REASON_MAX } from '../../clients/school-app-requests.js';
import { noContent, okRef } from '../../http/openapi-parts.js';
import type { SchoolAccess } from '../access.js';
import { approveApp, connectApp, declineApp, disconnectApp, moveApp, setAppUserTypes } from '../app-actions.js';
import { appChoices } from '../app-choices.js';
import type { SchoolDeps } from '../deps.js';
import { NotInSchoolError } from '../errors.js';
import { actingIn } from './acting.js';
import { appsJson, schoolAppJson } from './app-views.js';
import { type ClientParams, clientParams, errors, type OrgParams, orgParams } from './route-schemas.js';

const USER_TYPE = { type: 'string', pattern: '^[a-z_]{1,32}$' } as const;

const appBody = {
  type: 'object',
  additionalProperties: false,
  description: 'Both optional (`{}` connects the app and changes nothing else).',
  properties: {
    user_types: {
      anyOf: [{ type: 'array', items: USER_TYPE, minItems: 1, maxItems: 20 }, { type: 'null' }],
      description: 'Only these user types may use it (`student`, `teacher`…); null: everyone.',
    },
    position: { type: 'integer', minimum: 1, maximum: 9999, description: 'Its place on the dashboards: 1 is the first (past the end: the last).' },
  },
} as const;

type AppBody = { user_types?: string[] | null; position?: number };

/**
 * The school's apps (docs/school-console.md → Apps), for its admins (a teacher gets 404), with the services
 * of the console's Apps pages: connect, who may use an app and where it sits, stop using it; approve or decline
 * an app asking. An app not the school's to see is a 404; a request that is no longer there, a 409.
 */
export function appRoutes(api: FastifyInstance, deps: SchoolDeps): void {
  const appNow = async (school: SchoolAccess, clientId: string) => {
    const apps = await schoolApps(deps.store, school.organisation.id);
    const index = apps.findIndex((a) => a.client.clientId === clientId);
    if (index < 0) throw new NotInSchoolError();
    return schoolAppJson(apps[index]!, index + 1, deps.issuer);
  };

  api.get<{ Params: OrgParams }>('/schools/:org/apps', {
    schema: {
      tags: ['apps'],
      operationId: 'listApps',
      summary: 'The school’s apps',
      description: 'The apps the school uses in the dashboard’s order, the apps asking to be used by it (and those it declined), and the configuration file’s apps offered to it. School admins only.',
      params: orgParams,
      response: { 200: okRef('The apps.', 'Apps'), ...errors(400, 404) },
    },
  }, async (req) => appsJson(await appChoices(deps, actingIn(req, { admin: true }).school.organisation), deps.issuer));

  api.post<{ Params: ClientParams; Body: AppBody }>('/schools/:org/apps/:client_id', {
    schema: {
      tags: ['apps'],
      operationId: 'connectApp',
      summary: 'Use an app, and choose who and where',
      description: 'Connects an app offered to the school (or a configuration-file app of every school, to choose who uses it and where) when the school does not use it yet, '
        + 'then sets who may use it and its place, when given. The configuration file’s own connections are changed only there (400). School admins only.',
      params: clientParams,
      body: appBody,
      response: { 200: okRef('The app as the school uses it now.', 'SchoolApp'), ...errors(400, 404) },
    },
  }, async (req) => {
    const s = actingIn(req, { admin: true });
    const clientId = req.params.client_id;
    const current = (await schoolApps(deps.store, s.school.organisation.id)).find((a) => a.client.clientId === clientId);
    if (!current?.connection) await connectApp(deps, s, clientId);
    if (req.body.user_types !== undefined) await setAppUserTypes(deps, s, clientId, req.body.user_types ?? undefined);
    if (req.body.position !== undefined) await moveApp(deps, s, clientId, req.body.position);
    return appNow(s.school, clientId);
  });

  api.delete<{ Params: ClientParams }>('/schools/:org/apps/:client_id', {
    schema: {
      tags: ['apps'],
      operationId: 'disconnectApp',
      summary: 'Stop using an app',
      description: 'Off the school’s dashboards, and it signs no one of the school in; its developers see that the school no longer uses it. School admins only.',
      params: clientParams,
      response: { 204: noContent('Disconnected.'), ...errors(400, 404) },
    },
  }, async (req, reply) => {
    await disconnectApp(deps, actingIn(req, { admin: true }), req.params.client_id);
    return reply.code(204).send();
  });

  api.post<{ Params: ClientParams }>('/schools/:org/apps/:client_id/approve', {
    schema: {
      tags: ['apps'],
      operationId: 'approveApp',
      summary: 'Approve an app asking',
      description: 'The app is connected for everyone, after the school’s other apps, and its request is gone. 409 when it is not asking (any more), or is no longer live. School admins only. No body.',
      params: clientParams,
      response: { 200: okRef('The app as the school uses it now.', 'SchoolApp'), ...errors(400, 404, 409) },
    },
  }, async (req) => {
    const s = actingIn(req, { admin: true });
    const client = await approveApp(deps, s, req.params.client_id);
    return appNow(s.school, client.clientId);
  });

  api.post<{ Params: ClientParams; Body: { reason: string } }>('/schools/:org/apps/:client_id/decline', {
    schema: {
      tags: ['apps'],
      operationId: 'declineApp',
      summary: 'Decline an app asking',
      description: 'With a reason its developers read; the request stays, declined, so that it does not ask again (approve it later if the school changes its mind). 409 when it is not asking. School admins only.',
      params: clientParams,
      body: {
        type: 'object', required: ['reason'], additionalProperties: false,
        properties: { reason: { type: 'string', maxLength: DECLINE_REASON_MAX, description: 'Why, in a sentence.' } },
      },
      response: { 204: noContent('Declined.'), ...errors(400, 404, 409) },
    },
  }, async (req, reply) => {
    await declineApp(deps, actingIn(req, { admin: true }), req.params.client_id, req.body.reason);
    return reply.code(204).send();
  });
}
