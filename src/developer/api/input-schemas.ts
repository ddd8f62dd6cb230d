import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_LABEL_MAX, API_TOKEN_MAX_DAYS } from '../api-tokens.js';
import { PASSWORD_MAX_LENGTH } from '../developer-password.js';
import { APP_LIMITS } from '../app-input.js';
import { EMAIL_MAX_LENGTH } from '../developer-accounts.js';
import { REQUEST_NOTE_MAX } from '../../clients/school-app-requests.js';
import { instant, url } from './schema-parts.js';

/**
 * The request bodies of /developer/api (see schemas.ts for why the schemas are shared). Each is a closed
 * object (`additionalProperties: false`): a misspelt field is an error, not silently ignored. Limits come
 * from the services' own constants, so the document states the rules they apply. Each has an example,
 * which the OpenAPI test sends to prove it is accepted.
 */

const appName = { type: 'string', minLength: 1, maxLength: APP_LIMITS.nameLength, description: 'Shown to people when they sign in.' } as const;
const appDescription = { type: 'string', maxLength: APP_LIMITS.descriptionLength } as const;
const homepageUrl = url('https://…; "" clears it.');
const logoUrl = url('https://… of a PNG, JPEG, GIF or WebP image of at most 256 KiB, fetched once by Lanyard when set (refused with 400 when it cannot be); "" clears it.');

/** The details an app is registered with, and changed by. */
const appDetails = { name: appName, description: appDescription, homepage_url: homepageUrl, logo_url: logoUrl };

export const AppRegistrationSchema = {
  $id: 'AppRegistration',
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: appDetails,
  examples: [{ name: 'Times Tables Trainer', description: 'Practice for years 3 to 6.', homepage_url: 'https://tables.example.com' }],
} as const;

export const AppUpdateSchema = {
  $id: 'AppUpdate',
  type: 'object',
  description: 'The fields to change; the others stay as they are. An empty string clears an optional field.',
  minProperties: 1,
  additionalProperties: false,
  properties: appDetails,
  examples: [{ description: 'Practice for years 2 to 6.' }],
} as const;

export const RedirectUriInputSchema = {
  $id: 'RedirectUriInput',
  type: 'object',
  required: ['redirect_uri'],
  additionalProperties: false,
  properties: {
    redirect_uri: url('A callback URL: https (http only on 127.0.0.1, [::1] or localhost), no fragment, no wildcard. Matched exactly.'),
  },
  examples: [{ redirect_uri: 'https://tables.example.com/callback' }],
} as const;

export const ClientSecretInputSchema = {
  $id: 'ClientSecretInput',
  type: 'object',
  required: ['label'],
  additionalProperties: false,
  properties: {
    label: { type: 'string', minLength: 1, maxLength: APP_LIMITS.secretLabelLength, description: 'Where it is used, so you know which one to revoke.' },
    expires_at: { ...instant, description: 'Optional: an instant in the future, with a time zone.' },
  },
  examples: [{ label: 'Production server' }],
} as const;

export const DefaultScopesInputSchema = {
  $id: 'DefaultScopesInput',
  type: 'object',
  required: ['default_scopes'],
  additionalProperties: false,
  properties: {
    default_scopes: {
      type: 'array',
      uniqueItems: true,
      maxItems: 20,
      items: { type: 'string', minLength: 1, maxLength: 100 },
      description: 'Scopes Lanyard offers (`openid`, …). Keep `openid`: dashboard launches send no scope, and only the default scopes decide whether the app receives an id_token.',
    },
  },
  examples: [{ default_scopes: ['openid'] }],
} as const;

export const LogoutUrlInputSchema = {
  $id: 'LogoutUrlInput',
  type: 'object',
  required: ['logout_url'],
  additionalProperties: false,
  properties: { logout_url: url('https://… (http only on loopback); no wildcard.') },
  examples: [{ logout_url: 'https://tables.example.com/signed-out' }],
} as const;

export const InitiateLoginUriInputSchema = {
  $id: 'InitiateLoginUriInput',
  type: 'object',
  required: ['initiate_login_uri'],
  additionalProperties: false,
  properties: { initiate_login_uri: url('https://… (http only on loopback); no fragment, no wildcard, no user name or password.') },
  examples: [{ initiate_login_uri: 'https://tables.example.com/login/lanyard' }],
} as const;

export const TeamMemberInputSchema = {
  $id: 'TeamMemberInput',
  type: 'object',
  required: ['email'],
  additionalProperties: false,
  properties: {
    email: { type: 'string', minLength: 3, maxLength: EMAIL_MAX_LENGTH, description: 'The email address of their developer account: they are invited, and join when they accept.' },
  },
  examples: [{ email: 'colleague@example.com' }],
} as const;

export const InvitationAcceptInputSchema = {
  $id: 'InvitationAcceptInput',
  type: 'object',
  additionalProperties: false,
  properties: {
    token: {
      type: 'string', maxLength: 64,
      description: 'The last part of the invitation link the app’s owner was given. Needed (else 403) when your address was never verified: '
        + 'your account was made by open sign-up (`developer_signup: "open"`), even if sign-up is by invitation now. An account made '
        + 'through an invitation to the developer area may leave it out.',
    },
  },
  examples: [{}, { token: 'q3Xw…' }],
} as const;

export const ApiTokenInputSchema = {
  $id: 'ApiTokenInput',
  type: 'object',
  required: ['label'],
  additionalProperties: false,
  properties: {
    label: { type: 'string', minLength: 1, maxLength: API_TOKEN_LABEL_MAX, description: 'What uses the token ("CI deploys").' },
    expires_in_days: { type: 'integer', minimum: 1, maximum: API_TOKEN_MAX_DAYS, default: API_TOKEN_DEFAULT_DAYS },
    password: {
      type: 'string', maxLength: PASSWORD_MAX_LENGTH * 4,
      description: 'Your current password: required to create a token when two-step sign-in is off.',
    },
    totp_code: {
      type: 'string', maxLength: 16,
      description: 'A current code from your authenticator app, not used before: required instead of the password when two-step sign-in is on.',
    },
  },
  examples: [{ label: 'CI deploys', expires_in_days: 7, password: 'correct horse battery staple' }],
} as const;

export const AppSchoolRequestInputSchema = {
  $id: 'AppSchoolRequestInput',
  type: 'object',
  required: ['organisation'],
  additionalProperties: false,
  properties: {
    organisation: { type: 'string', minLength: 1, maxLength: 200, description: 'The school to ask: its id or slug (GET /developer/api/schools finds them by name).' },
    note: { type: 'string', maxLength: REQUEST_NOTE_MAX, description: 'A short note the school’s admins read: what the app is for, who at the school asked for it.' },
  },
  examples: [{ organisation: 'demo-school', note: 'Year 4 use Tables Trainer for their times tables; Ms Jones asked for it.' }],
} as const;

/** Request schemas: the validator compiles against these. */
export const INPUT_SCHEMAS = [
  AppRegistrationSchema, AppUpdateSchema, RedirectUriInputSchema, ClientSecretInputSchema, DefaultScopesInputSchema,
  LogoutUrlInputSchema, InitiateLoginUriInputSchema, TeamMemberInputSchema, InvitationAcceptInputSchema, ApiTokenInputSchema,
  AppSchoolRequestInputSchema,
] as const;
