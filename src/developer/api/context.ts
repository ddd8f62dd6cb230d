import type { StoredClient } from '../../../adapters/store.js';
import type { Actor } from '../actor.js';
import type { ApiTokens } from '../api-tokens.js';
import type { AppService } from '../app-service.js';
import type { DeveloperDeps } from '../deps.js';
import { appJson } from './views.js';

/** What every group of API routes works with. */
export interface ApiContext {
  deps: DeveloperDeps;
  apps: AppService;
  tokens: ApiTokens;
}

/** An app as the actor sees it after a change: the changed client, with the actor's role in its team. */
export async function appView(apps: AppService, actor: Actor, client: StoredClient) {
  const { role } = await apps.getApp(actor, client.clientId);
  return appJson(client, role);
}
