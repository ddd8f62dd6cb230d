import type { StoredClient } from '../../../adapters/store.js';
import type { Actor } from '../actor.js';
import type { ApiTokens } from '../api-tokens.js';
import type { FastifyReply } from 'fastify';
import type { AppService } from '../app-service.js';
import type { UrlChangeOutcome } from '../app-urls.js';
import type { DeveloperDeps } from '../deps.js';
import { appJson } from './views.js';

/** What every group of API routes works with. */
export interface ApiContext {
  deps: DeveloperDeps;
  apps: AppService;
  tokens: ApiTokens;
}

/** An app as the actor sees it after a change: the changed client, with the actor's role in its team and the changes waiting for review. */
export async function appView(apps: AppService, actor: Actor, client: StoredClient) {
  const app = await apps.getApp(actor, client.clientId);
  return appJson(client, app.role, await apps.proposalsOf(app));
}

/**
 * The answer to a change of where codes or people are sent (src/developer/app-urls.ts): `made` (201 or 200)
 * when it took effect, 202 Accepted with the unchanged app and its pending_changes when it waits for review.
 */
export async function urlChangeAnswer(apps: AppService, actor: Actor, outcome: UrlChangeOutcome, reply: FastifyReply, made: 200 | 201) {
  return reply.code(outcome.proposal ? 202 : made).send(await appView(apps, actor, outcome.client));
}
