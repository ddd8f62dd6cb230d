/**
 * Registered applications (SPEC: Client registration) and their many secrets. Every instance reads them
 * from the store, so a change made on one applies on all (oidc-provider finds clients through the adapter's
 * `Client` model: src/clients/client-registry.ts).
 */

/** Where a client was defined: the ops team's config file, or the developer area. */
/** `builtin`: Lanyard's own pages signing in through the provider (src/clients/builtin-clients.ts); never stored. */
export type ClientSource = 'config' | 'developer' | 'builtin';

export type ClientStatus = 'development' | 'pending' | 'live';

export interface StoredClient {
  clientId: string;
  name: string;
  /** SPEC: callback URL(s) — `redirect_uri` must match one exactly. */
  redirectUris: string[];
  /** SPEC: default scopes — used when an authorization request sends none (dashboard launches). */
  defaultScopes: string[];
  logoutUrl?: string | undefined;
  responseTypes: ('code' | 'id_token')[];
  source: ClientSource;
  /** The developer account that owns the app (the developer-area issue fills it in). */
  ownerId?: string | undefined;
  /**
   * Lifecycle for the developer area: `development` (signs in only the sandbox school's users), `pending`
   * (asked to go live; still development until an operator approves), `live`. Config-file clients are `live`.
   */
  status: ClientStatus;
  /** Developer-area details shown to developers (and later on dashboards): all optional. */
  description?: string | undefined;
  homepageUrl?: string | undefined;
  /** The logo's address as the developer gave it: Lanyard fetched it once, and shows only its own copy. */
  logoUrl?: string | undefined;
  /** The stored copy of the logo that pages show (adapters/store/logos.ts); absent until one was fetched. */
  logoHash?: string | undefined;
  /**
   * OpenID Connect Core §4 (third-party initiated login): where a dashboard launch sends the browser, with
   * `iss`, `login_hint` and `target_link_uri`, so the app starts its own authorization request. Without it a
   * launch is provider-initiated: a code for the first callback URL (src/dashboard/launch.ts).
   */
  initiateLoginUri?: string | undefined;
  /**
   * A configuration-file client that no organisation lists in `organisations[].apps`: connected to every
   * school (as before connections existed). Never set for developer-area apps, which schools connect.
   */
  allOrganisations?: boolean | undefined;
  /** Why an operator declined the last request to go live (cleared by the next request). */
  reviewNote?: string | undefined;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

/** One of a client's secrets, kept only as a hash (src/clients/client-secret.ts). */
export interface StoredClientSecret {
  /** Unique within the client; not secret. */
  id: string;
  clientId: string;
  hash: string;
  label: string;
  /** A short, non-secret reminder of which secret this is (e.g. its last characters). */
  hint?: string | undefined;
  createdAt: string;
  lastUsedAt?: string | undefined;
  /** After this instant (ISO 8601) the secret no longer authenticates. */
  expiresAt?: string | undefined;
}

export interface Clients {
  /** Creates or replaces the client's settings; its secrets are untouched. */
  putClient(client: StoredClient): Promise<void>;
  findClient(clientId: string): Promise<StoredClient | undefined>;
  /** Every client, by client_id. */
  listClients(): Promise<StoredClient[]>;
  /** Removes the client, all its secrets and its logos; false when there was none. */
  deleteClient(clientId: string): Promise<boolean>;
  /** Adds (or replaces, by id) a secret of an existing client. */
  putClientSecret(secret: StoredClientSecret): Promise<void>;
  /** The client's secrets, oldest first. */
  listClientSecrets(clientId: string): Promise<StoredClientSecret[]>;
  /** Removes one secret at once, for every instance; false when there was none. */
  deleteClientSecret(clientId: string, secretId: string): Promise<boolean>;
  /** Records when a secret was last used (ISO 8601). */
  touchClientSecret(clientId: string, secretId: string, at: string): Promise<void>;
}
