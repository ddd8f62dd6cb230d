import type { DeveloperAccount } from '../../adapters/store.js';
import { systemClock } from '../../src/clock.js';
import { actorOf } from '../../src/developer/actor.js';
import { AppService } from '../../src/developer/app-service.js';
import type { Lanyard } from './lanyard.js';
import { DEMO_CLIENT } from './relying-party.js';

/** http on loopback: a callback URL a developer may register. */
export const DEVELOPMENT_CALLBACK = DEMO_CLIENT.redirectUri;

export interface DevApp { clientId: string; secret: string; service: AppService; owner: DeveloperAccount }

/** Who owns the app and what it is called; each test's owner needs an id and address of its own. */
export interface DevAppOptions { ownerId?: string; email?: string; displayName?: string; name?: string }

/** A developer, and an app they registered in the developer area (still in development), with a callback URL and a secret. */
export async function developmentApp(lanyard: Lanyard, o: DevAppOptions = {}): Promise<DevApp> {
  const now = new Date().toISOString();
  const owner: DeveloperAccount = {
    id: o.ownerId ?? 'dev_sandbox_test', email: o.email ?? 'dev@example.com', displayName: o.displayName ?? 'Dee Veloper',
    passwordHash: 'unused', createdAt: now, updatedAt: now,
  };
  await lanyard.store.createDeveloper(owner);
  const service = new AppService({ store: lanyard.store, clock: systemClock, log: lanyard.app.log });
  const app = await service.register(actorOf(owner), { name: o.name ?? 'Tables Trainer' });
  await service.addCallback(actorOf(owner), app.clientId, DEVELOPMENT_CALLBACK);
  const { secret } = await service.createSecret(actorOf(owner), app.clientId, { label: 'test' });
  return { clientId: app.clientId, secret, service, owner };
}
