import { createHmac, randomBytes } from 'node:crypto';
import type { ClientMetadata } from 'oidc-provider';
import type { ClientConfig } from '../config.js';
import { clientSecretMatches, hashClientSecret } from './client-secret.js';

export interface RegisteredClient {
  clientId: string;
  name: string;
  redirectUris: string[];
  defaultScopes: string[];
  logoutUrl?: string | undefined;
  responseTypes: ('code' | 'id_token')[];
}



/**
 * Clients defined by ops in the config file. SPEC: an application may have many client secrets; they are
 * kept only as SHA-256 hashes (client-secret.ts) (plaintext `secrets` are a development convenience). oidc-provider knows one
 * secret per client, so each client gets an internal secret that never leaves this process: the token
 * endpoint shim (src/provider/token-request.ts) swaps a verified real secret for it.
 */
export class ClientRegistry {
  readonly #clients = new Map<string, ClientConfig>();
  readonly #processKey = randomBytes(32);

  constructor(clients: ClientConfig[]) {
    for (const c of clients) this.#clients.set(c.client_id, c);
  }

  get(clientId: string): RegisteredClient | undefined {
    const c = this.#clients.get(clientId);
    return c && {
      clientId: c.client_id,
      name: c.name,
      redirectUris: c.redirect_uris,
      defaultScopes: c.default_scopes ?? [],
      logoutUrl: c.logout_url,
      // SPEC: GET /oauth/authorize — response_type `code`; `id_token` (implicit) only for clients that opt in.
      responseTypes: c.response_types ?? ['code'],
    };
  }

  list(): RegisteredClient[] {
    return [...this.#clients.keys()].map((id) => this.get(id)!);
  }

  internalSecret(clientId: string): string {
    return createHmac('sha256', this.#processKey).update(clientId).digest('base64url');
  }

  /** Any of the client's secrets (SPEC: an application has many secrets). */
  verifySecret(clientId: string, secret: string): boolean {
    const client = this.#clients.get(clientId);
    if (!client || !secret) return false;
    const hashes = [...(client.secret_hashes ?? []), ...(client.secrets ?? []).map(hashClientSecret)];
    return hashes.map((h) => clientSecretMatches(h, secret)).includes(true); // every one compared: constant work
  }

  /** The static client list handed to oidc-provider. */
  providerMetadata(): ClientMetadata[] {
    return this.list().map((c) => ({
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
    }));
  }
}
