import type { FastifyInstance } from 'fastify';
import { actorOf } from '../actor.js';
import { MAX_URL_LENGTH } from '../../clients/callback-url.js';
import { developerOf } from './auth.js';
import { type ApiContext, appView, urlChangeAnswer } from './context.js';
import { body, type ClientIdParams, clientIdParams, errors, okRef } from './route-schemas.js';

/**
 * An app's sign-in settings (SPEC: client registration): callback URLs, default scopes, the initiate_login_uri
 * (dashboard launches, OpenID Connect Core §4) and the logout_url.
 * Each answer is the whole app as it now is, so a script sees the effect of its change.
 */
/** The answer when a change to a live app waits for review (docs/developer-area.md → Changes to a live app). */
const WAITING = okRef('The change waits for an operator’s review: the app as it still is, with its `pending_changes`.', 'App');

export function appSettingsRoutes(api: FastifyInstance, { apps }: ApiContext): void {
  api.delete<{ Params: ClientIdParams & { change_id: string } }>('/apps/:client_id/pending_changes/:change_id', {
    schema: {
      tags: ['apps'],
      operationId: 'withdrawPendingChange',
      summary: 'Withdraw a change waiting for review',
      params: {
        type: 'object',
        required: ['client_id', 'change_id'],
        properties: { ...clientIdParams.properties, change_id: { type: 'string', minLength: 1, maxLength: 64 } },
      },
      response: { 200: okRef('The app, without that change waiting.', 'App'), ...errors(403, 404) },
    },
  }, async (req) => {
    const actor = actorOf(developerOf(req));
    await apps.withdrawChange(actor, req.params.client_id, req.params.change_id);
    return appView(apps, actor, (await apps.getApp(actor, req.params.client_id)).client);
  });

  api.post<{ Params: ClientIdParams; Body: { redirect_uri: string } }>('/apps/:client_id/redirect_uris', {
    schema: {
      tags: ['callback URLs'],
      operationId: 'addRedirectUri',
      summary: 'Add a callback URL',
      description: '`redirect_uri` at /oauth/authorize must then match it exactly. On a live app the URL waits for an operator’s review (202).',
      params: clientIdParams,
      body: body('RedirectUriInput'),
      response: { 201: okRef('The app, with the URL added.', 'App'), 202: WAITING, ...errors(400, 403, 404, 409) },
    },
  }, async (req, reply) => {
    const actor = actorOf(developerOf(req));
    return urlChangeAnswer(apps, actor, await apps.addCallback(actor, req.params.client_id, req.body.redirect_uri), reply, 201);
  });

  api.delete<{ Params: ClientIdParams; Querystring: { redirect_uri: string } }>('/apps/:client_id/redirect_uris', {
    schema: {
      tags: ['callback URLs'],
      operationId: 'removeRedirectUri',
      summary: 'Remove a callback URL',
      params: clientIdParams,
      querystring: {
        type: 'object',
        required: ['redirect_uri'],
        properties: { redirect_uri: { type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH, description: 'The callback URL to remove, exactly as registered (URL-encoded).' } },
      },
      response: { 200: okRef('The app, without the URL.', 'App'), ...errors(400, 404) },
    },
  }, async (req) => {
    const actor = actorOf(developerOf(req));
    return appView(apps, actor, await apps.removeCallback(actor, req.params.client_id, req.query.redirect_uri));
  });

  api.put<{ Params: ClientIdParams; Body: { default_scopes: string[] } }>('/apps/:client_id/default_scopes', {
    schema: {
      tags: ['apps'],
      operationId: 'setDefaultScopes',
      summary: 'Set the default scopes',
      description: 'The scopes used when an authorization request sends none (launches from a dashboard). An empty list means none: such a request then gets no id_token.',
      params: clientIdParams,
      body: body('DefaultScopesInput'),
      response: { 200: okRef('The app.', 'App'), ...errors(400, 404) },
    },
  }, async (req) => {
    const actor = actorOf(developerOf(req));
    const client = await apps.setDefaultScopes(actor, req.params.client_id, req.body.default_scopes);
    return appView(apps, actor, client);
  });

  api.put<{ Params: ClientIdParams; Body: { initiate_login_uri: string } }>('/apps/:client_id/initiate_login_uri', {
    schema: {
      tags: ['apps'],
      operationId: 'setInitiateLoginUri',
      summary: 'Set the initiate login URI',
      description: 'Where a launch from a user’s Lanyard dashboard sends the browser, with `iss`, `login_hint` and `target_link_uri` '
        + '(OpenID Connect Core §4, third-party initiated login); the app then starts a normal authorization request. '
        + 'The same rules as a callback URL: https (http only on loopback), no fragment, no wildcard, no user name or password.',
      params: clientIdParams,
      body: body('InitiateLoginUriInput'),
      response: { 200: okRef('The app.', 'App'), 202: WAITING, ...errors(400, 403, 404, 409) },
    },
  }, async (req, reply) => {
    const actor = actorOf(developerOf(req));
    return urlChangeAnswer(apps, actor, await apps.setInitiateLoginUri(actor, req.params.client_id, req.body.initiate_login_uri), reply, 200);
  });

  api.delete<{ Params: ClientIdParams }>('/apps/:client_id/initiate_login_uri', {
    schema: {
      tags: ['apps'],
      operationId: 'clearInitiateLoginUri',
      summary: 'Clear the initiate login URI',
      description: 'A launch from the dashboard then brings an authorization code to the app’s first callback URL, with its default scopes.',
      params: clientIdParams,
      response: { 200: okRef('The app, without an initiate login URI.', 'App'), ...errors(404) },
    },
  }, async (req) => {
    const actor = actorOf(developerOf(req));
    return appView(apps, actor, (await apps.setInitiateLoginUri(actor, req.params.client_id, undefined)).client);
  });

  api.put<{ Params: ClientIdParams; Body: { logout_url: string } }>('/apps/:client_id/logout_url', {
    schema: {
      tags: ['apps'],
      operationId: 'setLogoutUrl',
      summary: 'Set the logout URL',
      description: 'Where GET /oauth/logout?client_id=… sends the browser after signing the user out.',
      params: clientIdParams,
      body: body('LogoutUrlInput'),
      response: { 200: okRef('The app.', 'App'), 202: WAITING, ...errors(400, 403, 404, 409) },
    },
  }, async (req, reply) => {
    const actor = actorOf(developerOf(req));
    return urlChangeAnswer(apps, actor, await apps.setLogoutUrl(actor, req.params.client_id, req.body.logout_url), reply, 200);
  });

  api.delete<{ Params: ClientIdParams }>('/apps/:client_id/logout_url', {
    schema: {
      tags: ['apps'],
      operationId: 'clearLogoutUrl',
      summary: 'Clear the logout URL',
      params: clientIdParams,
      response: { 200: okRef('The app, without a logout URL.', 'App'), ...errors(404) },
    },
  }, async (req) => {
    const actor = actorOf(developerOf(req));
    return appView(apps, actor, (await apps.setLogoutUrl(actor, req.params.client_id, undefined)).client);
  });
}
