/** Where each endpoint lives (SPEC: Endpoints). The provider owns only PROVIDER_ROUTES. */
export const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  userinfo: '/oauth/userinfo',
  revocation: '/oauth/revoke',
  logout: '/oauth/logout',
  /** oidc-provider's own: when another user signs in over a session, it ends the old one here first. */
  endSession: '/oauth/session/end',
  discovery: '/.well-known/openid-configuration',
  jwks: '/.well-known/jwks.json',
  interaction: '/interaction',
  docs: '/docs',
  /** A member of staff marks this browser as a trusted classroom device (interactions/classroom-device.ts). */
  classroomDevice: '/classroom-device',
  /** The front door: school picker, then the user's dashboard (src/dashboard/). */
  home: '/',
  /** Starts signing in to the dashboard for a school (?org=); /sign-in/done is where the sign-in comes back. */
  signIn: '/sign-in',
  signInDone: '/sign-in/done',
  /** A class link a teacher shows: GET /class (type the code), GET /class/:code, POST /class (src/dashboard/class-link-routes.ts). */
  classLink: '/class',
  /** POST /launch/:clientId: opens an app from the dashboard (src/dashboard/launch.ts). */
  launch: '/launch',
  /** POST: signs out of the dashboard. */
  signOut: '/sign-out',
  /** The school console for school admins and teachers (src/school/); its JSON API under /school/api. */
  school: '/school',
  /** Where the console's sign-in comes back (a redirect URI of the built-in client). */
  schoolSignInDone: '/school/sign-in/done',
  /** GET /logos/:clientId/:hash: an app's logo as Lanyard fetched it (src/dashboard/logo-route.ts). */
  logos: '/logos',
} as const;

const PROVIDER_ROUTES = [ROUTES.authorization, ROUTES.token, ROUTES.userinfo, ROUTES.revocation, `${ROUTES.endSession}/confirm`];

/**
 * The route pattern of a request oidc-provider handles, for per-route counts (no ids:
 * `/oauth/authorize/:uid`), or undefined for any other path.
 */
export function providerRoute(url: string): string | undefined {
  const path = url.split('?', 1)[0]!;
  if (PROVIDER_ROUTES.includes(path as (typeof PROVIDER_ROUTES)[number])) return path;
  // Resuming after an interaction: /oauth/authorize/:uid
  return path.startsWith(`${ROUTES.authorization}/`) ? `${ROUTES.authorization}/:uid` : undefined;
}

/** Does oidc-provider handle this request URL (path and query)? */
export const isProviderPath = (url: string): boolean => providerRoute(url) !== undefined;
