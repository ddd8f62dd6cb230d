/**
 * The JSON schemas of the user API (/api), shared by response serialisation and the OpenAPI document (each
 * `$id` becomes `#/components/schemas/<$id>`): one source, so what the document says and what the route
 * sends cannot drift. Optional values are left out, never null (SPEC: ID token claims, "omitted (not null)").
 */

/** A reference to a shared schema by its `$id`. */
export const ref = (id: string) => ({ $ref: `${id}#` });

const text = (description: string) => ({ type: 'string', description }) as const;

const emailOf = (description: string) => ({
  type: 'object',
  description,
  required: ['email'],
  additionalProperties: false,
  properties: { email: text('The email address of that account.') },
}) as const;

export const OrganisationSchema = {
  $id: 'Organisation',
  type: 'object',
  description: 'The school the user belongs to.',
  required: ['id', 'slug', 'name'],
  additionalProperties: false,
  properties: {
    id: text('The organisation’s stable id (the `organisation` parameter of /oauth/authorize accepts it).'),
    slug: text('Its short name, e.g. `demo-school` (also accepted as `organisation`).'),
    name: text('Its name, for people.'),
  },
} as const;

export const ServiceProvidersSchema = {
  $id: 'ServiceProviders',
  type: 'object',
  description: 'The user’s accounts elsewhere that the school has matched. Each is present only when matched; '
    + 'when none is, `service_providers` itself is left out.',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    google: emailOf('The matched Google account (the ID token’s `{issuer}/claims/google_email`).'),
    microsoft: emailOf('The matched Microsoft account (the ID token’s `{issuer}/claims/microsoft_email`).'),
    roster: {
      type: 'object',
      description: 'The person in the school-data provider’s system (the ID token’s `{issuer}/claims/roster_id`).',
      required: ['id'],
      additionalProperties: false,
      properties: { id: text('The person’s id there: the `data.id` of that provider’s student or employee record.') },
    },
  },
} as const;

export const UserSchema = {
  $id: 'User',
  type: 'object',
  description: 'The user the access token was issued for. The same values as the ID token’s claims.',
  required: ['id', 'type', 'username', 'given_name', 'family_name', 'organisation'],
  additionalProperties: false,
  properties: {
    id: text('The user’s stable id: the ID token’s `sub` (a letter followed by digits).'),
    type: text('The user type: `student`, `employee`, `admin`, … (the ID token’s `type`).'),
    username: text('The name the user signs in with at their school (unique within the organisation only).'),
    given_name: text('First name.'),
    family_name: text('Last name.'),
    email: text('Email address: only when the school has one for the user (many pupils have none).'),
    organisation: ref('Organisation'),
    service_providers: ref('ServiceProviders'),
  },
  examples: [{
    id: 'u816124103448623',
    type: 'student',
    username: 'pupil',
    given_name: 'Pip',
    family_name: 'Pupil',
    organisation: { id: 'o123456789012345', slug: 'demo-school', name: 'Demo School' },
    service_providers: { google: { email: 'pupil@demo-school-google.example' }, roster: { id: 'roster-pupil-0001' } },
  }],
} as const;

export const ErrorSchema = {
  $id: 'Error',
  type: 'object',
  description: 'Every error of this API (RFC 6750 §3 codes for token problems).',
  required: ['error', 'error_description'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'string',
      description: '`invalid_request` (400), `unauthenticated` (401, no token sent), `invalid_token` (401), '
        + '`insufficient_scope` (403), `method_not_allowed` (405), `server_error` (500), `temporarily_unavailable` (503).',
    },
    error_description: text('What went wrong, for people.'),
  },
} as const;

/** Every shared schema, in the order they are added to the API's scope. */
export const API_SCHEMAS = [OrganisationSchema, ServiceProvidersSchema, UserSchema, ErrorSchema] as const;
