import type { Organisation, User } from '../../adapters/store.js';

/** GET /api/user's answer (schemas.ts → User). */
export interface UserJson {
  id: string;
  type: string;
  username: string;
  given_name: string;
  family_name: string;
  email?: string;
  organisation: { id: string; slug: string; name: string };
  service_providers?: {
    google?: { email: string };
    microsoft?: { email: string };
    roster?: { id: string };
  };
}

/**
 * A user and their school as the API shows them. The same values, and the same rule for what is present,
 * as the ID token's claims (src/accounts/claims.ts): `id` is the `sub`, and a value the user does not have
 * is left out, never null (SPEC: ID token claims). `service_providers` is left out when nothing is matched.
 */
export function userJson(user: User, organisation: Organisation): UserJson {
  const out: UserJson = {
    id: user.id,
    type: user.type,
    username: user.username,
    given_name: user.givenName,
    family_name: user.familyName,
    organisation: { id: organisation.id, slug: organisation.slug, name: organisation.name },
  };
  if (user.email) out.email = user.email;
  const providers: NonNullable<UserJson['service_providers']> = {};
  if (user.googleEmail) providers.google = { email: user.googleEmail };
  if (user.microsoftEmail) providers.microsoft = { email: user.microsoftEmail };
  if (user.rosterId) providers.roster = { id: user.rosterId };
  if (Object.keys(providers).length > 0) out.service_providers = providers;
  return out;
}
