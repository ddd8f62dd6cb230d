import type { StoredClient } from '../../adapters/store.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { ActiveKey } from '../keys/key-manager.js';
import { PARAM_MAX_LENGTH, STATE_MAX_LENGTH } from './authorization-params.js';
import { ID_TOKEN_HINT_MAX_LENGTH, verifyIdTokenHint } from './id-token-hint.js';

/**
 * The parameters a logout request may carry: the SPEC's `client_id`, and those of OpenID Connect
 * RP-Initiated Logout 1.0 §2. Others (ui_locales, logout_hint, …) are ignored. Each has Lanyard's cap.
 */
const MAX_LENGTH = {
  client_id: PARAM_MAX_LENGTH.client_id,
  id_token_hint: ID_TOKEN_HINT_MAX_LENGTH,
  post_logout_redirect_uri: PARAM_MAX_LENGTH.redirect_uri,
  state: STATE_MAX_LENGTH,
} as const;

type Name = keyof typeof MAX_LENGTH;
type Params = Partial<Record<Name, string>>;

/** How the app was named: the SPEC's client_id, the standard id_token_hint, or both (then they agree). */
export type IdentifiedBy = 'client_id' | 'id_token_hint' | 'client_id+id_token_hint';

export type LogoutRequest =
  | {
    ok: true;
    client: StoredClient & { logoutUrl: string };
    /** Where the browser goes: the registered logout_url, with `state` when the app sent one. */
    redirectTo: string;
    identifiedBy: IdentifiedBy;
    /** What became of post_logout_redirect_uri, when sent (for the log). */
    postLogoutRedirectUri?: 'honoured' | 'ignored';
    state?: string;
  }
  | { ok: false; problem: string };

export interface LogoutDeps {
  clients: ClientRegistry;
  issuer: string;
  /** The keys Lanyard publishes now (they change at each rotation). */
  publishedKeys(): readonly ActiveKey[];
}

const refused = (problem: string): LogoutRequest => ({ ok: false, problem });

/**
 * Which app is signing the user out and where the browser goes next, from the query (GET) or the form
 * body (POST). Anything doubtful is refused with a problem to show on the error page, never redirected.
 */
export async function resolveLogout(input: unknown, deps: LogoutDeps): Promise<LogoutRequest> {
  const read = readParams(input);
  if (typeof read === 'string') return refused(read);
  const p = read;
  if (!p.client_id && !p.id_token_hint) {
    return refused('The app did not say who it is (client_id is missing, and there is no id_token_hint).');
  }
  let clientId = p.client_id;
  if (p.id_token_hint) {
    // OpenID Connect RP-Initiated Logout 1.0 §2: the hint names the app when client_id is absent; when both
    // are sent, client_id must be the app the ID token was issued to.
    const hint = await verifyIdTokenHint(p.id_token_hint, deps.issuer, deps.publishedKeys());
    if (!hint.ok) return refused(hint.problem);
    if (clientId && clientId !== hint.clientId) {
      return refused('The client_id is not the app the id_token_hint was issued to.');
    }
    clientId = hint.clientId;
  }
  const client = await deps.clients.get(clientId!);
  if (!client) return refused('This app is not registered with Lanyard.');
  const { logoutUrl } = client;
  if (!logoutUrl) return refused('This app has no sign-out address registered.');
  return {
    ok: true,
    client: { ...client, logoutUrl },
    redirectTo: p.state ? withState(logoutUrl, p.state) : logoutUrl,
    identifiedBy: p.client_id && p.id_token_hint ? 'client_id+id_token_hint' : p.client_id ? 'client_id' : 'id_token_hint',
    // OpenID Connect RP-Initiated Logout 1.0 §3: only a registered address is redirected to. The app's one
    // registered address is its logout_url, so any other value is ignored and the logout_url used instead.
    ...(p.post_logout_redirect_uri
      ? { postLogoutRedirectUri: p.post_logout_redirect_uri === logoutUrl ? 'honoured' : 'ignored' } as const : {}),
    ...(p.state ? { state: p.state } : {}),
  };
}

/**
 * The known parameters, each once, as text, within its cap; or the problem. RFC 6749 §3.1: a parameter sent
 * without a value is treated as omitted.
 */
function readParams(input: unknown): Params | string {
  const source = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const params: Params = {};
  for (const name of Object.keys(MAX_LENGTH) as Name[]) {
    const value = source[name];
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) return `The app sent ${name} more than once.`;
    if (typeof value !== 'string') return `The app's ${name} could not be read.`;
    if (value.length > MAX_LENGTH[name]) return `The app's ${name} is too long (at most ${MAX_LENGTH[name]} characters).`;
    params[name] = value;
  }
  return params;
}

/**
 * OpenID Connect RP-Initiated Logout 1.0 §3: `state` goes back to the app as a query parameter of the
 * address it is sent to. Appended to the registered address's own query, which is kept as it is.
 */
function withState(address: string, state: string): string {
  const url = new URL(address);
  const added = new URLSearchParams({ state }).toString();
  url.search = url.search.length > 1 ? `${url.search}&${added}` : `?${added}`;
  return url.href;
}
