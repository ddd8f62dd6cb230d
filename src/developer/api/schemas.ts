import { INPUT_SCHEMAS } from './input-schemas.js';
import { AppSchoolSchema, SchoolSchema } from './school-schemas.js';
import { instant } from './schema-parts.js';

/**
 * The JSON schemas of /developer/api, shared by request validation (src/developer/api/validator.ts), response
 * serialisation and the OpenAPI document (each `$id` becomes `#/components/schemas/<$id>`): one source, so
 * what the document says and what the routes enforce cannot drift (docs/developer-area.md).
 *
 * This file: what the API answers. Request bodies: input-schemas.ts; route building blocks: route-schemas.ts.
 */

export const ErrorSchema = {
  $id: 'Error',
  type: 'object',
  description: 'Every error of this API. `fields` lists each refused input with its JSON pointer (RFC 6901), relative to the body, query or path parameters.',
  required: ['error', 'error_description'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'string',
      description: 'A stable code: `invalid_request` (400), `unauthenticated`/`invalid_token` (401), `forbidden` (403), `not_found` (404), `conflict` (409), `too_many_attempts` (429), `server_error` (500), `temporarily_unavailable` (503).',
    },
    error_description: { type: 'string', description: 'What went wrong, for people.' },
    fields: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        additionalProperties: false,
        properties: {
          path: { type: 'string', description: 'JSON pointer of the refused value, e.g. `/redirect_uri`.' },
          message: { type: 'string' },
        },
      },
    },
  },
} as const;

export const MeSchema = {
  $id: 'Me',
  type: 'object',
  description: 'The developer account the token belongs to.',
  required: ['id', 'email', 'display_name', 'totp_enabled'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    display_name: { type: 'string' },
    totp_enabled: { type: 'boolean', description: 'Whether the account signs in with a second factor (TOTP).' },
  },
} as const;

export const ApiTokenSchema = {
  $id: 'ApiToken',
  type: 'object',
  description: 'A personal API token, without its secret (which is shown only when created).',
  required: ['id', 'label', 'hint', 'created_at', 'expires_at'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    label: { type: 'string' },
    hint: { type: 'string', description: 'The token’s last 4 characters, to tell tokens apart.' },
    created_at: instant,
    expires_at: instant,
    last_used_at: { ...instant, description: 'Updated at most once a minute.' },
  },
} as const;

export const CreatedApiTokenSchema = {
  $id: 'CreatedApiToken',
  type: 'object',
  description: 'A new token. `token` is shown this once: Lanyard keeps only its hash.',
  required: [...ApiTokenSchema.required, 'token'],
  additionalProperties: false,
  properties: {
    ...ApiTokenSchema.properties,
    token: { type: 'string', description: 'Send it as `Authorization: Bearer <token>`.', examples: ['lyd_0123456789abcdef_…'] },
  },
} as const;

export const AppSchema = {
  $id: 'App',
  type: 'object',
  description: 'An app (an OAuth client) as its team sees it. Absent values are left out, never null.',
  required: ['client_id', 'name', 'status', 'redirect_uris', 'default_scopes', 'role', 'created_at', 'updated_at'],
  additionalProperties: false,
  properties: {
    client_id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    homepage_url: { type: 'string' },
    logo_url: { type: 'string', description: 'The address the logo was fetched from, once, when it was set.' },
    logo_image: {
      type: 'string',
      description: 'Where Lanyard serves its copy of the logo (a path on the issuer), the only one pages show; absent until one was fetched.',
    },
    status: {
      type: 'string',
      enum: ['development', 'pending', 'live'],
      description: '`development`: signs in only the sandbox school’s users; `pending`: asked to go live, waiting for an operator; `live`.',
    },
    review_note: { type: 'string', description: 'Why an operator declined the last request to go live.' },
    redirect_uris: { type: 'array', items: { type: 'string' }, description: 'Callback URLs: `redirect_uri` must match one exactly.' },
    default_scopes: { type: 'array', items: { type: 'string' }, description: 'Used when an authorization request sends no scope (dashboard launches).' },
    logout_url: { type: 'string', description: 'Where GET /oauth/logout?client_id=… sends the browser.' },
    initiate_login_uri: {
      type: 'string',
      description: 'Where a launch from a user’s dashboard sends the browser, with `iss`, `login_hint` and `target_link_uri` (OpenID Connect Core §4); '
        + 'absent: a launch brings an authorization code to the first callback URL, with the default scopes.',
    },
    role: { type: 'string', enum: ['owner', 'member'], description: 'The calling developer’s role in the app’s team.' },
    two_step_required: {
      type: 'boolean',
      description: 'Present (true) on a live app you may not work on without two-step sign-in: its settings are withheld '
        + '(`redirect_uris` and `default_scopes` empty, the rest left out) until you turn it on; every call about the app answers 403 until then.',
    },
    pending_changes: {
      type: 'array',
      description: 'Changes to a live app waiting for an operator’s review: a callback URL added, the logout_url or the initiate_login_uri set. '
        + 'They take effect once approved. Present (in the answers about one app) when some wait.',
      items: {
        type: 'object',
        required: ['id', 'setting', 'url', 'proposed_by', 'proposed_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', description: 'Withdraw it with DELETE /developer/api/apps/{client_id}/pending_changes/{id}.' },
          setting: { type: 'string', enum: ['redirect_uri', 'logout_url', 'initiate_login_uri'] },
          url: { type: 'string' },
          proposed_by: { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: { type: 'string' }, name: { type: 'string' } } },
          proposed_at: instant,
        },
      },
    },
    created_at: instant,
    updated_at: instant,
  },
} as const;

export const ClientSecretSchema = {
  $id: 'ClientSecret',
  type: 'object',
  description: 'A client secret, without its value (shown only when created).',
  required: ['id', 'label', 'created_at'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    label: { type: 'string' },
    hint: { type: 'string', description: 'The secret’s last characters, to tell secrets apart.' },
    created_at: instant,
    last_used_at: instant,
    expires_at: { ...instant, description: 'After this instant the secret no longer authenticates.' },
  },
} as const;

export const CreatedClientSecretSchema = {
  $id: 'CreatedClientSecret',
  type: 'object',
  description: 'A new client secret. `secret` is shown this once: Lanyard keeps only its hash.',
  required: [...ClientSecretSchema.required, 'hint', 'secret'],
  additionalProperties: false,
  properties: {
    ...ClientSecretSchema.properties,
    secret: { type: 'string', description: 'Use it with client_secret_basic or client_secret_post at /oauth/token.' },
  },
} as const;

export const TeamMemberSchema = {
  $id: 'TeamMember',
  type: 'object',
  required: ['developer_id', 'email', 'display_name', 'role', 'added_at'],
  additionalProperties: false,
  properties: {
    developer_id: { type: 'string' },
    email: { type: 'string' },
    display_name: { type: 'string' },
    role: {
      type: 'string',
      enum: ['owner', 'member', 'invited'],
      description: '`invited`: invited by an owner, not yet accepted; it gives no access to the app until they accept.',
    },
    added_at: { ...instant, description: 'When they joined (for `invited`: when they were invited).' },
  },
} as const;

export const InvitationRecordedSchema = {
  $id: 'InvitationRecorded',
  type: 'object',
  description: 'The answer to adding someone by email: the same whether or not a developer account has the address (it tells '
    + 'nobody which addresses have accounts). The team lists the invitation by the address (`developer_id` `address:` and the '
    + 'address, role `invited`) until it is accepted, declined or withdrawn; the developer with the address sees it when they '
    + 'sign in, or once they make an account with it. The answer also carries a link for the owner to hand over: an account whose '
    + 'address Lanyard never verified (one made by open sign-up, `developer_signup: "open"`, even after sign-up became by '
    + 'invitation) accepts only with it.',
  required: ['email', 'status', 'link', 'link_expires_at'],
  additionalProperties: false,
  properties: {
    email: { type: 'string', description: 'The address, as Lanyard compares it (lower-cased, trimmed).' },
    status: { type: 'string', enum: ['invitation_recorded'] },
    link: { type: 'string', format: 'uri', description: 'The invitation link, shown only in this answer. It works once, for the account with this address, until `link_expires_at`.' },
    link_expires_at: { ...instant, description: 'When the link lapses (7 days).' },
  },
} as const;

export const InvitationSchema = {
  $id: 'Invitation',
  type: 'object',
  description: 'An invitation to an app’s team that you have not answered yet. It shows only the app’s name and who invited you: '
    + 'accept it to reach the app.',
  required: ['client_id', 'app_name', 'invited_by', 'invited_at'],
  additionalProperties: false,
  properties: {
    client_id: { type: 'string' },
    app_name: { type: 'string' },
    invited_by: {
      type: 'object',
      required: ['id', 'name'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', description: 'A developer id, or `operator`.' },
        name: { type: 'string', description: 'Their display name now.' },
      },
    },
    invited_at: instant,
  },
} as const;

export const HistoryEntrySchema = {
  $id: 'HistoryEntry',
  type: 'object',
  description: 'One recorded change to an app. Never holds a secret (a secret appears by its label and hint).',
  required: ['at', 'actor', 'action', 'detail'],
  additionalProperties: false,
  properties: {
    at: instant,
    actor: {
      type: 'object',
      required: ['id', 'name'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', description: 'A developer id, or `operator` (the lanyard command line).' },
        name: { type: 'string', description: 'What the actor was called at the time.' },
      },
    },
    action: { type: 'string', examples: ['app.registered', 'callback.added', 'secret.created'] },
    detail: {
      type: 'object',
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    },
  },
} as const;

export const SandboxSchema = {
  $id: 'Sandbox',
  type: 'object',
  description: 'The sandbox school development apps sign in, and its test users’ credentials. These are test '
    + 'credentials shown to every developer on purpose; they protect nothing but the sandbox’s test users.',
  required: ['organisation', 'users'],
  additionalProperties: false,
  properties: {
    organisation: {
      type: 'object',
      required: ['id', 'slug', 'name'],
      additionalProperties: false,
      properties: { id: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' } },
    },
    users: {
      type: 'array',
      items: {
        type: 'object',
        required: ['role', 'type', 'username', 'given_name', 'family_name', 'id'],
        additionalProperties: false,
        properties: {
          role: { type: 'string', description: 'What this test user is for.' },
          type: { type: 'string', description: 'Their `type` claim.' },
          username: { type: 'string' },
          given_name: { type: 'string' },
          family_name: { type: 'string' },
          id: { type: 'string', description: 'Their `sub`.' },
          password: { type: 'string' },
          emoji: {
            type: 'array',
            description: 'The emoji password, in order.',
            items: {
              type: 'object',
              required: ['name', 'glyph'],
              additionalProperties: false,
              properties: { name: { type: 'string' }, glyph: { type: 'string' } },
            },
          },
          badge: {
            type: 'object',
            required: ['code', 'qr_data_url'],
            additionalProperties: false,
            properties: {
              code: { type: 'string', description: 'The badge code as printed.' },
              qr_data_url: { type: 'string', description: 'The badge’s QR code, a PNG data URL: show it to the camera.' },
            },
          },
        },
      },
    },
  },
} as const;

/** Every shared schema, in the order the document lists them. */
export const SHARED_SCHEMAS = [
  ErrorSchema, MeSchema, ApiTokenSchema, CreatedApiTokenSchema, AppSchema, ClientSecretSchema, CreatedClientSecretSchema,
  TeamMemberSchema, InvitationRecordedSchema, InvitationSchema, HistoryEntrySchema, SandboxSchema, SchoolSchema, AppSchoolSchema, ...INPUT_SCHEMAS,
] as const;
