import type { StoredClient } from '../../adapters/store.js';
import { LANYARD_CLIENT_ID } from '../clients/builtin-clients.js';
import type { Actor } from './actor.js';
import type { AppRecorder } from './app-history.js';
import { newClientId } from './app-ids.js';
import { APP_LIMITS, checkDetails } from './app-input.js';
import type { AppLogos } from './app-logos.js';
import type { AppDetailsInput } from './app-summary.js';
import type { DeveloperDeps } from './deps.js';
import { ConflictError } from './errors.js';

/** Registers an app in `development`, with a random client_id; the actor becomes its owner. */
export async function registerApp(
  deps: Pick<DeveloperDeps, 'store' | 'clock'>, logos: AppLogos, recorder: AppRecorder, actor: Actor, input: AppDetailsInput & { name: string },
): Promise<StoredClient> {
  const { store, clock } = deps;
  const details = checkDetails(input, true);
  const owned = (await store.listMemberships(actor.id)).filter((m) => m.role === 'owner');
  if (owned.length >= APP_LIMITS.appsPerOwner) {
    throw new ConflictError(`You already own ${APP_LIMITS.appsPerOwner} apps: delete one you no longer need first.`);
  }
  const logo = details.logoUrl ? await logos.fetch(details.logoUrl) : undefined;
  const now = clock.now().toISOString();
  let client: StoredClient = {
    clientId: await freshClientId(store),
    name: details.name!,
    description: details.description,
    homepageUrl: details.homepageUrl,
    logoUrl: details.logoUrl,
    redirectUris: [],
    // SPEC: OpenID Connect rules 1 — `openid` as a default scope, so dashboard launches receive an id_token.
    defaultScopes: ['openid'],
    logoutUrl: undefined,
    initiateLoginUri: undefined,
    responseTypes: ['code'],
    source: 'developer',
    ownerId: actor.id,
    status: 'development',
    reviewNote: undefined,
    createdAt: now,
    updatedAt: now,
  };
  await store.putClient(client);
  try {
    if (logo) {
      // A logo is stored for a client that exists, and named by it once stored.
      await logos.store(client.clientId, logo);
      client = { ...client, logoHash: logo.hash };
      await store.putClient(client);
    }
    await store.putTeamMember({ clientId: client.clientId, developerId: actor.id, role: 'owner', addedAt: now });
  } catch (err) {
    // Nothing half-made: an app without its owner (or its logo) is taken away again, as far as the store lets us.
    await store.deleteClient(client.clientId).catch(() => undefined);
    throw err;
  }
  await recorder.change(actor, client.clientId, 'app.registered', { name: client.name }, 'app.registered', 'app registered');
  return client;
}

/** A client_id no client has (the built-in client's included). */
async function freshClientId(store: DeveloperDeps['store']): Promise<string> {
  for (;;) {
    const id = newClientId();
    // 128 random bits never collide in practice; checking costs one read and makes it certain.
    if (id !== LANYARD_CLIENT_ID && !(await store.findClient(id))) return id;
  }
}
