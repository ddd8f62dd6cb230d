import type { DeveloperAccount } from '../../adapters/store.js';
import { systemClock } from '../../src/clock.js';
import { actorOf, OPERATOR } from '../../src/developer/actor.js';
import { AppService } from '../../src/developer/app-service.js';
import { createDeveloper, enableDeveloperTotp, type TestDeveloper } from './developer.js';
import type { Lanyard } from './lanyard.js';

export interface LiveApp { owner: TestDeveloper; account: DeveloperAccount; apps: AppService; clientId: string }

/**
 * A developer (an invitation accepted over HTTP, signed in, two-step sign-in on, as a live app's team must
 * have) and their app, live: registered with a callback URL (and a logout URL when given), asked to go live
 * and approved by the operator (docs/developer-area.md → Changes to a live app).
 */
export async function liveApp(lanyard: Lanyard, o: { owner: string; app: string; callback: string; logoutUrl?: string }): Promise<LiveApp> {
  const owner = await createDeveloper(lanyard, { name: o.owner });
  await enableDeveloperTotp(lanyard, owner.browser);
  const account = (await lanyard.store.findDeveloper(owner.id))!;
  const apps = new AppService({ store: lanyard.store, clock: systemClock, log: lanyard.app.log });
  const actor = actorOf(account);
  const { clientId } = await apps.register(actor, { name: o.app });
  await apps.addCallback(actor, clientId, o.callback);
  if (o.logoutUrl) await apps.setLogoutUrl(actor, clientId, o.logoutUrl);
  await apps.requestLive(actor, clientId);
  await apps.approve(OPERATOR, clientId);
  return { owner, account, apps, clientId };
}
