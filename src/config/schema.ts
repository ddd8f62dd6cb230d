import type { FromSchema } from 'json-schema-to-ts';
import {
  CONFIG_APPS_DEFAULT, CONFIG_REVISION_DEFAULT, DEVELOPER_SIGNUP_DEFAULT, RATE_LIMIT_DEFAULTS, RESPONSE_TYPES_DEFAULT,
  THROTTLING_DEFAULTS,
} from './defaults.js';
import { AUDIT_SCHEMA } from './schema-audit.js';
import { ORGANISATION_SCHEMA, USER_SCHEMA } from './schema-directory.js';
import { ROSTER_SCHEMA } from './schema-roster.js';
import { SCHOOL_DAY_SCHEMA } from './schema-school-day.js';

/**
 * The JSON Schema of the configuration file, and the file's TypeScript types derived from it (json-schema-to-ts),
 * so the two cannot drift. config/schema.json is this object written out (`npm run schema`; a test compares
 * them), for editors and for anyone reading the file's rules without the code. The `default` keywords come
 * from src/config/defaults.ts; the code applies them there, the schema only shows them.
 */
export const CONFIG_SCHEMA = {
  '$schema': 'http://json-schema.org/draft-07/schema#',
  '$id': 'https://lanyard.dev/schema/config.json',
  title: 'Lanyard configuration',
  type: 'object',
  additionalProperties: false,
  required: [
    'clients'
  ],
  properties: {
    '$schema': {
      type: 'string'
    },
    revision: {
      type: 'integer',
      minimum: 0,
      description: 'The revision of this file: bump it with every change you roll out to instances sharing a store. An instance writes the file\'s clients into the store only if its revision is the store\'s or newer, never over a newer one (docs/operations.md → Rolling configuration changes).',
      default: CONFIG_REVISION_DEFAULT
    },
    development: {
      type: 'boolean',
      description: 'Marks a development-only configuration (the demo). Refused when NODE_ENV=production.'
    },
    service_documentation: {
      type: 'string',
      format: 'uri',
      pattern: '^https?://',
      description: 'URL of the developer documentation advertised in discovery. Default: {issuer}/docs.'
    },
    developer_signup: {
      enum: [
        'invite',
        'open'
      ],
      description: 'Who may create a developer account: invite (`lanyard developers invite EMAIL` prints a single-use link) or open (anyone may sign up at /developer/sign-up).',
      default: DEVELOPER_SIGNUP_DEFAULT
    },
    config_apps: {
      enum: [
        'offered',
        'every_school'
      ],
      description: 'What becomes of a client in "clients" that no organisation lists in its "apps": offered (each school admin may connect it in the school console; until then it is on no dashboard and signs no one in) or every_school (connected to every school, as before the school console) (docs/dashboard-and-app-launch.md → Which apps a school uses).',
      default: CONFIG_APPS_DEFAULT
    },
    clients: {
      type: 'array',
      items: {
        '$ref': '#/definitions/client'
      }
    },
    organisations: {
      type: 'array',
      description: 'Organisations and users imported (created or updated) at every start, like `lanyard import`.',
      items: {
        '$ref': '#/definitions/organisation'
      }
    },
    login_throttling: {
      '$ref': '#/definitions/throttling'
    },
    rate_limits: {
      type: 'object',
      additionalProperties: false,
      description: 'Budgets of anonymous requests per client address (docs/security.md → Rate limits), counted in the store so they hold across instances. Every field is optional.',
      properties: {
        authorize_per_minute: {
          type: 'integer',
          minimum: 1,
          description: 'Authorization requests (GET/POST /oauth/authorize) per client address per minute.',
          default: RATE_LIMIT_DEFAULTS.authorize_per_minute
        },
        authorize_per_hour: {
          type: 'integer',
          minimum: 1,
          description: 'Authorization requests per client address per hour; with the interaction lifetime it bounds what one address can store.',
          default: RATE_LIMIT_DEFAULTS.authorize_per_hour
        },
        interaction_pages_per_minute: {
          type: 'integer',
          minimum: 1,
          description: 'Sign-in page views (GET /interaction/...) per client address per minute.',
          default: RATE_LIMIT_DEFAULTS.interaction_pages_per_minute
        },
        class_link_per_minute: {
          type: 'integer',
          minimum: 1,
          description: 'Class links opened (GET /class/<code>, POST /class) per client address per minute.',
          default: RATE_LIMIT_DEFAULTS.class_link_per_minute
        },
        class_link_per_hour: {
          type: 'integer',
          minimum: 1,
          description: 'Class links opened per client address per hour.',
          default: RATE_LIMIT_DEFAULTS.class_link_per_hour
        }
      }
    },
    roster: ROSTER_SCHEMA,
    audit: AUDIT_SCHEMA,
    school_day: SCHOOL_DAY_SCHEMA
  },
  definitions: {
    url: {
      type: 'string',
      format: 'uri',
      pattern: '^https?://[^#]+$'
    },
    client: {
      type: 'object',
      additionalProperties: false,
      required: [
        'client_id',
        'name',
        'redirect_uris'
      ],
      properties: {
        client_id: {
          '$ref': '#/definitions/client_id'
        },
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 200
        },
        secret_hashes: {
          type: 'array',
          description: "SHA-256 hashes of the client's secrets, \"sha256:<base64url>\" (make a secret and its hash with `lanyard clients secret`). Any of them authenticates.",
          items: {
            type: 'string',
            pattern: '^sha256:[A-Za-z0-9_-]{43}$'
          }
        },
        secrets: {
          type: 'array',
          description: 'Plaintext secrets: development only, refused when NODE_ENV=production.',
          items: {
            type: 'string',
            minLength: 8
          }
        },
        redirect_uris: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: {
            '$ref': '#/definitions/url'
          }
        },
        default_scopes: {
          type: 'array',
          uniqueItems: true,
          description: 'Scopes applied when an authorization request sends no scope. Include openid for an id_token.',
          items: {
            type: 'string',
            pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$'
          }
        },
        logout_url: {
          '$ref': '#/definitions/url'
        },
        initiate_login_uri: {
          '$ref': '#/definitions/url',
          description: 'OpenID Connect Core §4 (third-party initiated login): a dashboard launch sends the browser here with iss, login_hint and target_link_uri, and the app starts its own authorization request. Without it, a launch sends a code for the first redirect URI (docs/dashboard-and-app-launch.md → Dashboard and app launch).'
        },
        response_types: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          description: 'Add "id_token" to allow response_type=id_token (the ID token in the URL fragment).',
          items: {
            enum: [
              'code',
              'id_token'
            ]
          },
          default: RESPONSE_TYPES_DEFAULT
        }
      }
    },
    organisation: ORGANISATION_SCHEMA,
    user: USER_SCHEMA,
    throttling: {
      type: 'object',
      additionalProperties: false,
      description: 'Guessing protection for sign-in (docs/security.md → Sign-in protection). Every field is optional.',
      properties: {
        free_attempts: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'Known and trusted devices: failures per account and device before waits start.',
          default: THROTTLING_DEFAULTS.free_attempts
        },
        base_wait_seconds: {
          type: 'integer',
          minimum: 1,
          maximum: 3600,
          description: 'Known and trusted devices: the first wait, doubling with each further failure.',
          default: THROTTLING_DEFAULTS.base_wait_seconds
        },
        max_wait_seconds: {
          type: 'integer',
          minimum: 1,
          maximum: 86400,
          description: 'Known and trusted devices: the longest wait.',
          default: THROTTLING_DEFAULTS.max_wait_seconds
        },
        new_device_free_attempts: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'Unknown devices: failures per account and source (device, or IP without one) before waits start.',
          default: THROTTLING_DEFAULTS.new_device_free_attempts
        },
        new_device_base_wait_seconds: {
          type: 'integer',
          minimum: 1,
          maximum: 3600,
          description: 'Unknown devices: the first wait, doubling with each further failure.',
          default: THROTTLING_DEFAULTS.new_device_base_wait_seconds
        },
        new_device_max_wait_seconds: {
          type: 'integer',
          minimum: 1,
          maximum: 3600,
          description: 'Unknown devices: the longest wait.',
          default: THROTTLING_DEFAULTS.new_device_max_wait_seconds
        },
        new_device_failure_cap: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'Consecutive unknown-device failures per account and method before that path stops until staff unlock it (lanyard users unlock). At most 100 (NIST SP 800-63B).',
          default: THROTTLING_DEFAULTS.new_device_failure_cap
        },
        device_failures: {
          type: 'integer',
          minimum: 1,
          description: 'Failures on any account from one device per window.',
          default: THROTTLING_DEFAULTS.device_failures
        },
        ip_failures: {
          type: 'integer',
          minimum: 1,
          description: 'Failures on any account from one IP address without a device cookie per window.',
          default: THROTTLING_DEFAULTS.ip_failures
        },
        organisation_failures: {
          type: 'integer',
          minimum: 1,
          description: 'No longer used (0.1.0); accepted so that older files stay valid.'
        },
        badge_failures: {
          type: 'integer',
          minimum: 1,
          description: 'Unknown badge codes per device (or per IP without one) per window.',
          default: THROTTLING_DEFAULTS.badge_failures
        },
        window_seconds: {
          type: 'integer',
          minimum: 60,
          maximum: 86400,
          description: 'The window of the per-source budgets above.',
          default: THROTTLING_DEFAULTS.window_seconds
        },
        new_devices_per_ip_per_hour: {
          type: 'integer',
          minimum: 1,
          description: 'New device cookies given to one IP address per hour.',
          default: THROTTLING_DEFAULTS.new_devices_per_ip_per_hour
        }
      }
    },
    client_id: {
      type: 'string',
      pattern: '^[A-Za-z0-9._~-]{1,128}$'
    },
    user_type: {
      type: 'string',
      pattern: '^[a-z_]{1,32}$',
      description: 'e.g. student, employee, admin'
    }
  }
} as const;

/** The file's types: defaulted fields stay optional, as a file may leave them out. */
export type ConfigFile = FromSchema<typeof CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: true }>;
export type ClientConfig = ConfigFile['clients'][number];
export type OrganisationSeed = NonNullable<ConfigFile['organisations']>[number];
export type UserSeed = NonNullable<OrganisationSeed['users']>[number];
/** An app a school uses: its client_id, or the client_id and the user types who may use it. */
export type AppSeed = NonNullable<OrganisationSeed['apps']>[number];
export type ThrottlingConfig = NonNullable<ConfigFile['login_throttling']>;
export type RateLimitsConfig = NonNullable<ConfigFile['rate_limits']>;
export type RosterConfig = NonNullable<ConfigFile['roster']>;
/** What becomes of a file's client that no organisation lists (docs/dashboard-and-app-launch.md). */
export type ConfigApps = NonNullable<ConfigFile['config_apps']>;
export type AuditConfig = NonNullable<ConfigFile['audit']>;
export type SchoolDayConfig = NonNullable<ConfigFile['school_day']>;
/** Who may create a developer account (docs/developer-area.md). */
export type DeveloperSignup = NonNullable<ConfigFile['developer_signup']>;
/** A way to sign in an organisation offers. */
export type LoginMethod = NonNullable<OrganisationSeed['login_methods']>[number];
