import type Provider from 'oidc-provider';

/** A Koa middleware as oidc-provider's `provider.use` takes it. */
export type ProviderMiddleware = Parameters<Provider['use']>[0];
export type ProviderContext = Parameters<ProviderMiddleware>[0];
