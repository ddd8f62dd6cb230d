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
