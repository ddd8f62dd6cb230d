import type Provider from 'oidc-provider';

/**
 * oidc-provider marks its cookies (`_interaction`, `_interaction_resume`, `_session`) Secure when Koa says
 * the request is secure (`ctx.secure`: https to Lanyard itself, or a trusted proxy's X-Forwarded-Proto).
 * With an https issuer the browser always reaches Lanyard by https, so they are Secure whatever the last hop
 * used: a TLS proxy that Lanyard was not told to trust (LANYARD_TRUST_PROXY unset), or one that sends no
 * X-Forwarded-Proto, left them without it. Koa reads `secure` from the app's own request prototype, so this
 * changes nothing else and no other app. Lanyard's own cookies follow the same rule (src/http/cookie-header.ts).
 */
export function secureCookiesForHttpsIssuer(provider: Provider, issuer: string): void {
  if (!issuer.startsWith('https://')) return;
  Object.defineProperty(provider.request, 'secure', { get: () => true, configurable: true });
}
