import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import Provider from 'oidc-provider';
import type { Store } from '../../adapters/store.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { providerSigningKeys } from '../keys/jwks.js';
import type { KeySet } from '../keys/key-manager.js';
import { providerConfiguration } from './configuration.js';
import { CookieSigner } from './cookie-signer.js';
import { defaultScopes } from './default-scopes.js';
import { logProviderEvents } from './events.js';
import {
  allowPlainRedirectUrisForImplicit, idTokensWithTypHeader, secureCookiesForHttpsIssuer, unauthorizedClientForUnregisteredResponseTypes,
} from './internals.js';
import { renderErrorPage } from './render-error.js';
import { tokenRequest } from './token-request.js';
import { storeUnavailable } from './unavailable.js';
import { userinfoRequest } from './userinfo-request.js';

export interface ProviderHostDeps {
  issuer: string;
  store: Store;
  clients: ClientRegistry;
  cookieKeys: string[];
  trustProxy: number;
  log: FastifyBaseLogger;
}

/**
 * Holds the running oidc-provider instance. oidc-provider's key set is fixed per instance, so a new key
 * set means a new instance, swapped in atomically: requests already inside the old one finish there,
 * new ones go to the new one (docs/architecture.md → Keys).
 */
export class ProviderHost {
  #provider!: Provider;
  #handler!: (req: IncomingMessage, res: ServerResponse) => void;
  #keys!: KeySet;
  readonly #cookieSigner: CookieSigner;

  constructor(private readonly deps: ProviderHostDeps, keys: KeySet) {
    this.#cookieSigner = new CookieSigner(deps.cookieKeys);
    this.rekey(keys);
  }

  get provider(): Provider { return this.#provider; }
  get keys(): KeySet { return this.#keys; }

  handle(req: IncomingMessage, res: ServerResponse): void {
    this.#handler(req, res);
  }

  /** Builds a provider for `keys` and makes it current. */
  rekey(keys: KeySet): void {
    const d = this.deps;
    const signingKeys = providerSigningKeys(keys.published);
    const provider = new Provider(d.issuer, providerConfiguration({
      issuer: d.issuer,
      store: d.store,
      clients: d.clients,
      cookieSigner: this.#cookieSigner,
      jwks: { keys: signingKeys },
      renderError: renderErrorPage(d.log),
    }));
    provider.proxy = d.trustProxy > 0;
    provider.maxIpsCount = d.trustProxy;
    secureCookiesForHttpsIssuer(provider, d.issuer);
    allowPlainRedirectUrisForImplicit(provider);
    idTokensWithTypHeader(provider, signingKeys);
    unauthorizedClientForUnregisteredResponseTypes(provider);
    provider.use(storeUnavailable);
    provider.use(defaultScopes(d.clients));
    provider.use(tokenRequest(d.clients, d.log));
    provider.use(userinfoRequest);
    logProviderEvents(provider, d.log);
    this.#handler = provider.callback() as (req: IncomingMessage, res: ServerResponse) => void;
    this.#provider = provider;
    this.#keys = keys;
  }
}
