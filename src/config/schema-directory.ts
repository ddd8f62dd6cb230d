import { LOCALES } from '../formats/locales.js';
import { BADGE_REQUIRES_EMOJI_DEFAULT, LOGIN_METHODS_DEFAULT, SURNAME_INITIAL_DEFAULT } from './defaults.js';

/**
 * The configuration file's organisations and users (CONFIG_SCHEMA → definitions.organisation, .user): their own
 * module so src/config/schema.ts stays readable. `#/definitions/…` references are CONFIG_SCHEMA's.
 */
export const ORGANISATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [
    'slug',
    'name'
  ],
  properties: {
    slug: {
      type: 'string',
      pattern: '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$',
      not: {
        pattern: '^o[0-9]{15}$'
      },
      description: "URL-friendly name. Must not look like an organisation id (o + 15 digits), which authorize's organisation parameter also accepts."
    },
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 200
    },
    users: {
      type: 'array',
      items: {
        '$ref': '#/definitions/user'
      }
    },
    login_methods: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: {
        enum: [
          'emoji',
          'badge',
          'password'
        ]
      },
      description: 'Ways to sign in offered by this organisation.',
      default: LOGIN_METHODS_DEFAULT
    },
    badge_requires_emoji: {
      type: 'boolean',
      description: "A badge must be followed by the pupil's emoji password (two factors).",
      default: BADGE_REQUIRES_EMOJI_DEFAULT
    },
    language: {
      enum: LOCALES,
      description: "The language of the school's sign-in screens, dashboard and refusal pages (docs/languages.md). Unset: the browser's language. A pupil's choice with the language switch still wins."
    },
    class_sign_in: {
      type: 'object',
      additionalProperties: false,
      description: "Class sign-in's name tiles (docs/childrens-sign-in.md).",
      properties: {
        surname_initial: {
          type: 'boolean',
          description: "A pupil's tile shows the initial of their surname after their first name (\"Ava K.\"); otherwise the first name alone.",
          default: SURNAME_INITIAL_DEFAULT
        }
      }
    },
    apps: {
      type: 'array',
      uniqueItems: true,
      description: "The apps this school uses, in its dashboard's order: client_ids, or objects that name the user types who may use the app. A configuration-file client that some organisations list is connected only to them; one that no organisation lists is offered to every school, or connected to every school, as config_apps says (docs/dashboard-and-app-launch.md → Which apps a school uses).",
      items: {
        oneOf: [
          {
            '$ref': '#/definitions/client_id'
          },
          {
            type: 'object',
            additionalProperties: false,
            required: [
              'client_id'
            ],
            properties: {
              client_id: {
                '$ref': '#/definitions/client_id'
              },
              user_types: {
                type: 'array',
                minItems: 1,
                uniqueItems: true,
                items: {
                  '$ref': '#/definitions/user_type'
                },
                description: 'Only users of these types (e.g. student, employee) see and may use the app. Default: every user.'
              }
            }
          }
        ]
      }
    }
  }
} as const;

/** A user of an organisation (CONFIG_SCHEMA → definitions.user). */
export const USER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [
    'username',
    'given_name',
    'family_name',
    'type'
  ],
  properties: {
    username: {
      type: 'string',
      pattern: '^[A-Za-z0-9._@-]{1,64}$'
    },
    given_name: {
      type: 'string',
      minLength: 1,
      maxLength: 200
    },
    family_name: {
      type: 'string',
      minLength: 1,
      maxLength: 200
    },
    type: {
      '$ref': '#/definitions/user_type'
    },
    email: {
      type: ['string', 'null'],
      format: 'email',
      description: 'For the email claim. Left out of a record: the stored one is kept; null: cleared.'
    },
    google_email: {
      type: ['string', 'null'],
      format: 'email',
      description: 'For the google_email claim. Left out of a record: the stored one is kept; null: cleared.'
    },
    microsoft_email: {
      type: ['string', 'null'],
      format: 'email',
      description: 'For the microsoft_email claim. Left out of a record: the stored one is kept; null: cleared.'
    },
    roster_id: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 200,
      description: "The person's id in a school-data provider's system: the roster_id claim. Left out of a record: the stored one is kept; null: cleared."
    },
    password: {
      type: 'string',
      minLength: 8,
      maxLength: 1024,
      description: 'Plaintext password: development only (refused when NODE_ENV=production); hashed on import.'
    },
    password_hash: {
      type: 'string',
      pattern: '^\\$argon2id\\$v=\\d+\\$[mtp]=\\d+,[mtp]=\\d+,[mtp]=\\d+\\$[A-Za-z0-9+/]+\\$[A-Za-z0-9+/]+$',
      description: 'An argon2id hash in its PHC string form ($argon2id$v=19$m=…,t=…,p=…$salt$hash): make one with `lanyard users hash`.'
    },
    emoji_password: {
      type: 'string',
      pattern: '^[a-z ]+(,[a-z ]+){5}$',
      description: 'Development only: six emoji names separated by commas (e.g. "dog,cat,fox,frog,monkey,panda"); hashed on import.'
    },
    emoji_password_hash: {
      type: 'string',
      pattern: '^\\$argon2id\\$v=\\d+\\$[mtp]=\\d+,[mtp]=\\d+,[mtp]=\\d+\\$[A-Za-z0-9+/]+\\$[A-Za-z0-9+/]+$',
      description: 'An argon2id hash of the six emoji names: make one with `lanyard users hash --emoji`.'
    },
    staff_roles: {
      type: 'array',
      items: { enum: ['admin', 'teacher'] },
      uniqueItems: true,
      description: "Roles in the school console at this organisation (docs/school-console.md): admin, teacher. Kept in step at every start: a role the file stops listing is withdrawn (roles given in the console, by the operator or by the roster are never touched)."
    },
    badge_code: {
      type: 'string',
      minLength: 26,
      maxLength: 40,
      description: 'Development only: a fixed badge code (26 characters of Crockford base32, dashes allowed).'
    }
  }
} as const;
