import type { FastifyInstance } from 'fastify';
import { actorOf } from '../actor.js';
import { AppService } from '../app-service.js';
import type { DeveloperDeps } from '../deps.js';
import { sandboxCredentials } from '../sandbox.js';
import { sandboxPage } from './sandbox-page.js';
import { sendHtml } from '../../web/http.js';
import { area } from '../area.js';

/**
 * GET /developer/sandbox: the sandbox school every developer tests with (docs/developer-area.md), its test users'
 * credentials and how to try a sign-in. Test credentials, shown to every signed-in developer on purpose
 * (src/developer/sandbox.ts); still never cached, like every page of the area.
 */
export function sandboxPages(scope: FastifyInstance, deps: DeveloperDeps): void {
  scope.get('/sandbox', async (req, reply) => {
    const who = await area(deps).signedIn(req, reply);
    if (!who) return reply;
    const [sandbox, apps] = await Promise.all([
      sandboxCredentials(deps.store),
      new AppService(deps).listApps(actorOf(who.account)),
    ]);
    return sendHtml(reply, 200, sandboxPage({ who, sandbox, apps: apps.map((a) => a.client), issuer: deps.issuer }));
  });
}
