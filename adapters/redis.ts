import { randomBytes } from 'node:crypto';
import type { Clock } from '../src/clock.js';
import { LanyardError } from '../src/errors.js';
import { redisAppRequests } from './redis/app-requests.js';
import { redisAudit } from './redis/audit.js';
import { redisBadges } from './redis/badges.js';
import { redisClassLinks } from './redis/class-links.js';
import { redisClients } from './redis/clients.js';
import { redisConfigRevisions } from './redis/config-revisions.js';
import { redisConnections } from './redis/connections.js';
import { closeRedis, connectRedis } from './redis/connection.js';
import type { RedisContext } from './redis/context.js';
import { redisCounters } from './redis/counters.js';
import { redisDevelopers } from './redis/developers.js';
import { redisDirectory } from './redis/directory.js';
import { redisHelpCodes } from './redis/help-codes.js';
import { keyLayout } from './redis/key-layout.js';
import { redisLogos } from './redis/logos.js';
import { redisOidcRecords } from './redis/oidc-records.js';
import { redisRoster } from './redis/roster.js';
import { redisRosterEntries } from './redis/roster-entries.js';
import { redisPersistence, type RedisPersistence } from './redis/persistence.js';
import { redisSettings } from './redis/settings.js';
import { redisSigningKeys } from './redis/signing-keys.js';
import { redisStaffFactors } from './redis/staff-factors.js';
import { redisStaffGrants } from './redis/staff-grants.js';
import { redisStaffTokens } from './redis/staff-tokens.js';
import { sweepExpired } from './redis/sweep.js';
import { redisTransfer } from './redis/transfer.js';
import { type RedisTarget, redisPrefixProblem } from '../src/config/store-url.js';
import type { Store } from './store.js';

export type { RedisPersistence } from './redis/persistence.js';

/** How long a readiness probe key lives: Redis removes it by itself. */
const PROBE_TTL_MS = 10_000;

/**
 * The backend for many instances: one Redis server or a Sentinel-watched primary, every key under
 * `${prefix}:` (layout: adapters/redis/key-layout.ts). Opening fails within ~5 s when Redis cannot be
 * reached; once open, the client reconnects by itself and a command fails at once while Redis is away.
 * `onConnect`, when given, is told once how the server persists its data (AOF, RDB), for the startup log.
 */
export async function openRedisStore(
  target: RedisTarget,
  clock: Clock,
  prefix: string,
  onConnect?: (persistence: RedisPersistence) => void,
): Promise<Store> {
  const prefixProblem = redisPrefixProblem(prefix);
  if (prefixProblem) throw new LanyardError('config_invalid', `Redis key prefix ${prefixProblem}`);
  const client = await connectRedis(target);
  const ctx: RedisContext = { client, keys: keyLayout(prefix), now: () => clock.now().getTime() };
  try {
    if (onConnect) onConnect(await redisPersistence(client));
  } catch (err) {
    await closeRedis(client);
    throw err;
  }

  const oidc = redisOidcRecords(ctx);
  const directory = redisDirectory(ctx, oidc.records.revokeByAccountId);
  const clients = redisClients(ctx);
  const logos = redisLogos(ctx, clients.listClients);
  const connections = redisConnections(ctx);
  const appRequests = redisAppRequests(ctx);
  const helpCodes = redisHelpCodes(ctx);
  const classLinks = redisClassLinks(ctx);
  const staffGrants = redisStaffGrants(ctx);
  const staffFactors = redisStaffFactors(ctx);
  const staffTokens = redisStaffTokens(ctx);
  const developers = redisDevelopers(ctx);
  const keys = redisSigningKeys(ctx);
  const badges = redisBadges(ctx, oidc.records.revokeByAccountId);
  const rosterEntries = redisRosterEntries(ctx);
  const counters = redisCounters(ctx);
  const settings = redisSettings(ctx);
  const audit = redisAudit(ctx);
  const transfer = redisTransfer({
    organisation: directory.entries.organisations,
    user: directory.entries.users,
    retired_user: directory.entries.retiredUsers,
    credential: directory.entries.credentials,
    badge: badges.entries,
    ...rosterEntries,
    client: clients.entries.clients,
    client_secret: clients.entries.secrets,
    client_logo: logos.entries,
    connection: connections.entries,
    app_request: appRequests.entries,
    staff_grant: staffGrants.entries,
    staff_factor: staffFactors.entries,
    staff_token: staffTokens.entries,
    help_code: helpCodes.entries,
    class_link: classLinks.entries,
    audit_event: audit.entries,
    developer: developers.entries.developer,
    team_member: developers.entries.team_member,
    api_token: developers.entries.api_token,
    developer_event: developers.entries.developer_event,
    key: keys.entries,
    setting: settings.entries,
    oidc: oidc.entries,
    counter: counters.entries,
  });

  const instance = randomBytes(6).toString('base64url');
  let probes = 0;
  let closing: Promise<void> | undefined;
  return {
    backend: 'redis',
    oidc: oidc.records,
    ...directory.directory,
    ...clients.clients,
    ...logos.logos,
    ...redisConfigRevisions(ctx),
    ...connections.connections,
    ...appRequests.appRequests,
    ...helpCodes.helpCodes,
    ...classLinks.classLinks,
    ...staffGrants.grants,
    ...staffFactors.factors,
    ...staffTokens.tokens,
    ...developers.developers,
    ...keys.records,
    ...badges.badges,
    ...redisRoster(ctx, oidc.records.revokeByAccountId),
    ...counters.counters,
    ...settings.settings,
    ...audit.audit,
    ...transfer,
    sweep: async () => (await sweepExpired(ctx, {
      records: oidc.sweepRecords, indexes: oidc.pruneIndexes, owner: oidc.pruneOwner, expiring: counters.sweepKeys,
    })) + (await classLinks.sweep()),
    async ping() {
      // A key of its own per probe: concurrent probes cannot read each other's value.
      const key = ctx.keys.probe(instance, (probes += 1));
      const value = String(ctx.now());
      await client.set(key, value, 'PX', PROBE_TTL_MS);
      if ((await client.get(key)) !== value) throw new Error('Redis did not read back the readiness probe just written');
    },
    close: () => (closing ??= closeRedis(client)),
  };
}
