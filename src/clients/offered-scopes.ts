/**
 * The scopes a developer may choose as an app's default scopes (SPEC: Client registration — "default
 * scopes"). Default scopes apply when an authorization request sends no scope at all: the launches from a
 * user's dashboard (provider-initiated flows), src/provider/default-scopes.ts. Lanyard offers `openid` and
 * the scopes of its own API (src/api/); each is one entry here, and the developer area (pages, JSON API,
 * validation) offers it without further change.
 */
export interface OfferedScope {
  /** The scope value as it goes on the wire. */
  name: string;
  /** A short title for a checkbox, after the scope's name. */
  title: string;
  /** What choosing it does, in a sentence or two a developer can act on. */
  description: string;
}

export const OFFERED_SCOPES: readonly OfferedScope[] = [
  {
    name: 'openid',
    title: 'an ID token with the user’s identity',
    // Why a default `openid` matters for dashboard launches (SPEC: OpenID Connect rules 1) is said once, above
    // the checkboxes (AM.openidWhy).
    description: 'With openid, the token response carries an id_token (a signed JWT naming the user).',
  },
  {
    name: 'user:read',
    title: 'read the signed-in user at /api/user',
    // src/api/user-route.ts: GET /api/user takes an access token with `openid` or `user:read`.
    description: 'Lets the access token read the signed-in user (name, type, school, email and matched accounts) '
      + 'from GET /api/user. An access token from an openid request can already do that; choose user:read for an '
      + 'app that asks for API scopes without openid (no id_token) and still needs to know who signed in.',
  },
];

export const offeredScopeNames = (): string[] => OFFERED_SCOPES.map((s) => s.name);

export const isOfferedScope = (scope: string): boolean => OFFERED_SCOPES.some((s) => s.name === scope);
