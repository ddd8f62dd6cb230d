import { LANYARD_CLIENT_ID } from '../clients/builtin-clients.js';
import type { ProviderHost } from './provider-host.js';

/**
 * Spends an authorization code that came back to one of Lanyard's own pages (the dashboard's /sign-in/done,
 * the classroom-device page): those pages need only the session the sign-in left, so the code is destroyed
 * unused, for it must not stay redeemable. Only a code of Lanyard's built-in client, issued for exactly this
 * page's redirect URI, is touched: a code of any other client sent here (a link someone was tricked into
 * opening, say) is left for its app to redeem (docs/security.md → Lanyard's own pages). Returns whether a
 * code was spent.
 */
export async function spendOwnCode(host: ProviderHost, code: string, redirectUri: string): Promise<boolean> {
  if (code.length === 0 || code.length > 200) return false;
  const found = await host.provider.AuthorizationCode.find(code);
  if (!found || found.clientId !== LANYARD_CLIENT_ID || found.redirectUri !== redirectUri) return false;
  await found.destroy();
  return true;
}

/** What a spent code of Lanyard's own said: who signed in, when (epoch seconds), and the request's nonce. */
export interface OwnSignIn {
  accountId: string;
  authTime: number;
  nonce: string | undefined;
}

/**
 * Spends a code of Lanyard's built-in client issued for exactly `redirectUri`, as spendOwnCode does, and says
 * what it was issued for: the page that started the sign-in checks that this very sign-in (its nonce) just
 * happened (its authTime), rather than trusting whatever session the browser holds. Undefined for any other
 * code (one already spent, another client's, another page's), which is left alone.
 */
export async function takeOwnCode(host: ProviderHost, code: string, redirectUri: string): Promise<OwnSignIn | undefined> {
  if (code.length === 0 || code.length > 200) return undefined;
  const found = await host.provider.AuthorizationCode.find(code);
  if (!found || found.clientId !== LANYARD_CLIENT_ID || found.redirectUri !== redirectUri || !found.isValid) return undefined;
  await found.destroy();
  if (typeof found.accountId !== 'string' || typeof found.authTime !== 'number') return undefined;
  return { accountId: found.accountId, authTime: found.authTime, nonce: typeof found.nonce === 'string' ? found.nonce : undefined };
}
