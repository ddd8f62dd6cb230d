import { createHmac } from 'node:crypto';
import type { ClientMetadata } from 'oidc-provider';
import type { Clients, StoredClient, StoredClientSecret } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { clientSecretMatches } from './client-secret.js';

/** How often a secret's "last used" time is written: a busy app must not turn every token request into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Derived internal secrets remembered at most (a few bytes each): far more than a school service has apps. */
const MAX_CACHED_SECRETS = 10_000;

/**
 * Clients as every instance sees them: read from the store on each use, so a change made anywhere (the
 * config file at an instance's startup, the developer area) applies everywhere at once.
 * SPEC: an application may have many client secrets; they are kept only as SHA-256 hashes (client-secret.ts).
 * oidc-provider knows one secret per client, so each client gets an internal secret derived from a key kept
 * in the store (the same on every instance, never sent anywhere): the token endpoint shim
 * (src/provider/token-request.ts) swaps a verified real secret for it.
 */
export class ClientRegistry {
  /** Derived secrets by client id: an HMAC per token request and per client lookup adds up (a profile showed it). */
  readonly #internalSecrets = new Map<string, string>();

  constructor(
    private readonly store: Clients,
    private readonly clock: Clock,
    private readonly authKey: Buffer,
    /** Lanyard's own clients (src/clients/builtin-clients.ts): served from here, never stored. */
    private readonly builtIns: readonly StoredClient[] = [],
  ) {}

  async get(clientId: string): Promise<StoredClient | undefined> {
    return this.builtIns.find((c) => c.clientId === clientId) ?? this.store.findClient(clientId);
  }

  internalSecret(clientId: string): string {
    let secret = this.#internalSecrets.get(clientId);
    if (secret === undefined) {
      secret = createHmac('sha256', this.authKey).update(clientId).digest('base64url');
      // Only registered clients get here (after their secret or their record was found); bounded all the same.
      if (this.#internalSecrets.size >= MAX_CACHED_SECRETS) this.#internalSecrets.clear();
      this.#internalSecrets.set(clientId, secret);
    }
    return secret;
  }

  /** Whether `secret` is one of the client's unexpired secrets (SPEC: an application has many secrets). */
  async verifySecret(clientId: string, secret: string): Promise<boolean> {
    if (!clientId || !secret) return false;
    const now = this.clock.now();
    const secrets = await this.store.listClientSecrets(clientId);
    // Every hash compared, expired or not: the work does not tell which secret nearly matched.
    const matched = secrets.filter((s) => clientSecretMatches(s.hash, secret) && !expired(s, now));
    const used = matched[0];
    if (!used) return false;
    if (!used.lastUsedAt || now.getTime() - Date.parse(used.lastUsedAt) >= LAST_USED_RESOLUTION_MS) {
      await this.store.touchClientSecret(clientId, used.id, now.toISOString());
    }
    return true;
  }

  /** The client as oidc-provider's `Client` model needs it (served by the adapter: adapters/oidc-adapter.ts). */
  async providerMetadata(clientId: string): Promise<ClientMetadata | undefined> {
    const c = await this.get(clientId);
    return c && {
      client_id: c.clientId,
      client_name: c.name,
      client_secret: this.internalSecret(c.clientId),
      redirect_uris: c.redirectUris,
      response_types: c.responseTypes,
      grant_types: [
        'authorization_code',
        'refresh_token',
        ...(c.responseTypes.includes('id_token') ? ['implicit'] : []),
      ],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    };
  }
}

const expired = (s: StoredClientSecret, now: Date) => s.expiresAt !== undefined && Date.parse(s.expiresAt) <= now.getTime();
