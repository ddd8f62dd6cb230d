import type { FastifyInstance } from 'fastify';
import { actorOf } from '../actor.js';
import { HISTORY_MAX } from '../app-service.js';
import type { AppDetailsInput } from '../app-summary.js';
import { developerOf } from './auth.js';
import { type ApiContext, appView } from './context.js';
import { body, clientIdParams, type ClientIdParams, errors, noContent, okList, okRef } from './route-schemas.js';
import { appJson, eventJson, listedAppJson } from './views.js';

interface AppDetailsBody {
  name?: string;
  description?: string;
  homepage_url?: string;
  logo_url?: string;
}

const detailsInput = (b: AppDetailsBody): AppDetailsInput => {
  const input: AppDetailsInput = {};
  if (b.name !== undefined) input.name = b.name;
  if (b.description !== undefined) input.description = b.description;
  if (b.homepage_url !== undefined) input.homepageUrl = b.homepage_url;
  if (b.logo_url !== undefined) input.logoUrl = b.logo_url;
  return input;
};

/** A script asks for pages of the history: fewer than the pages show, unless it asks (up to HISTORY_MAX). */
const API_HISTORY_DEFAULT = 50;

/**
 * Apps: list, register, read, change details, delete, history, and the request to go live. Every app
 * endpoint answers 404 for an app outside the developer's teams, exactly as for one that does not exist.
 */
export function appRoutes(api: FastifyInstance, { apps }: ApiContext): void {
  api.get('/apps', {
    schema: {
      tags: ['apps'],
      operationId: 'listApps',
      summary: 'List your apps',
      description: 'Every app whose team you are in, by name.',
      response: { 200: okList('Your apps.', 'App'), ...errors() },
    },
  }, async (req) => {
    const actor = actorOf(developerOf(req));
    return (await apps.listApps(actor)).map((s) => listedAppJson(s.client, s.role, actor));
  });

  api.post<{ Body: AppDetailsBody & { name: string } }>('/apps', {
    schema: {
      tags: ['apps'],
      operationId: 'registerApp',
      summary: 'Register an app',
      description: 'The app starts in `development` (it signs in only the sandbox school’s users), with a random client_id; you are its owner.',
      body: body('AppRegistration'),
      response: { 201: okRef('The new app.', 'App'), ...errors(400, 409) },
    },
  }, async (req, reply) => {
    const actor = actorOf(developerOf(req));
    const client = await apps.register(actor, { ...detailsInput(req.body), name: req.body.name });
    return reply.code(201).send(appJson(client, 'owner')); // whoever registers an app owns it
  });

  api.get<{ Params: ClientIdParams }>('/apps/:client_id', {
    schema: {
      tags: ['apps'],
      operationId: 'getApp',
      summary: 'Read an app',
      params: clientIdParams,
      response: { 200: okRef('The app.', 'App'), ...errors(404) },
    },
  }, async (req) => {
    const app = await apps.getApp(actorOf(developerOf(req)), req.params.client_id);
    return appJson(app.client, app.role, await apps.proposalsOf(app));
  });

  api.patch<{ Params: ClientIdParams; Body: AppDetailsBody }>('/apps/:client_id', {
    schema: {
      tags: ['apps'],
      operationId: 'updateApp',
      summary: 'Change an app’s details',
      params: clientIdParams,
      body: body('AppUpdate'),
      response: { 200: okRef('The changed app.', 'App'), ...errors(400, 404) },
    },
  }, async (req) => {
    const actor = actorOf(developerOf(req));
    return appView(apps, actor, await apps.updateDetails(actor, req.params.client_id, detailsInput(req.body)));
  });

  api.delete<{ Params: ClientIdParams }>('/apps/:client_id', {
    schema: {
      tags: ['apps'],
      operationId: 'deleteApp',
      summary: 'Delete an app',
      description: 'Owners only. Removes the app, its secrets and its team, and revokes its grants and tokens.',
      params: clientIdParams,
      response: { 204: noContent('Deleted.'), ...errors(403, 404) },
    },
  }, async (req, reply) => {
    await apps.deleteApp(actorOf(developerOf(req)), req.params.client_id);
    return reply.code(204).send();
  });

  api.get<{ Params: ClientIdParams; Querystring: { limit: number } }>('/apps/:client_id/history', {
    schema: {
      tags: ['apps'],
      operationId: 'getAppHistory',
      summary: 'An app’s history of changes',
      description: 'Who changed what, and when; newest first. Never shows a secret.',
      params: clientIdParams,
      querystring: {
        type: 'object',
        properties: { limit: { type: 'integer', minimum: 1, maximum: HISTORY_MAX, default: API_HISTORY_DEFAULT, description: 'How many changes, newest first.' } },
      },
      response: { 200: okList('The changes.', 'HistoryEntry'), ...errors(400, 404) },
    },
  }, async (req) => (await apps.history(actorOf(developerOf(req)), req.params.client_id, req.query.limit)).map(eventJson));

  api.post<{ Params: ClientIdParams }>('/apps/:client_id/go-live', {
    schema: {
      tags: ['apps'],
      operationId: 'requestGoLive',
      summary: 'Ask for the app to go live',
      description: 'Puts the app in the operators’ queue (`status: pending`). Needs at least one callback URL. No body.',
      params: clientIdParams,
      response: { 200: okRef('The app, now pending.', 'App'), ...errors(404, 409) },
    },
  }, async (req) => {
    const actor = actorOf(developerOf(req));
    return appView(apps, actor, await apps.requestLive(actor, req.params.client_id));
  });
}
