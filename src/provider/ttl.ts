/** Lifetimes in seconds. SPEC: Limits — code 10 minutes, access token 24 hours; the rest are Lanyard's choice. */
export const TTL = {
  AuthorizationCode: 10 * 60,
  AccessToken: 24 * 60 * 60,
  IdToken: 60 * 60,
  /** Refresh tokens rotate on use; an unused one lapses after 30 days. */
  RefreshToken: 30 * 24 * 60 * 60,
  /**
   * A sign-in's grant, saved at authorization and not on refresh: no refresh token works beyond 30 days
   * after the sign-in it came from (test/integration/refresh-lifetime.test.ts).
   */
  Grant: 30 * 24 * 60 * 60,
  /** A browser sign-in lasts a school day. */
  Session: 10 * 60 * 60,
  /**
   * Time to complete the login screens, and how long a sign-in that is never finished stays stored. A
   * sign-in takes a child a minute or two; 15 minutes also covers a teacher going round a class of 30
   * helping each child in turn. Later, the child sees "Sign-in expired" and starts again from the app.
   * With the hourly authorize budget this bounds what one address can store (docs/security.md → Rate limits).
   */
  Interaction: 15 * 60,
} as const;
