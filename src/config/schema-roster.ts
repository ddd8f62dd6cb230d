import { ROSTER_DEFAULTS, ROSTER_TYPES_DEFAULT } from './defaults.js';

/**
 * The configuration file's `roster` section (src/config/schema.ts CONFIG_SCHEMA → properties.roster): how
 * `lanyard roster import` reads a school information system's export (docs/rostering.md). Its own module
 * so the schema file stays readable; `#/definitions/user_type` is CONFIG_SCHEMA's.
 */
export const ROSTER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  description: 'How `lanyard roster import` reads a school information system\'s export (docs/rostering.md). Every field is optional.',
  properties: {
    retention_days: {
      type: 'integer',
      minimum: 1,
      maximum: 3650,
      description: 'Days a leaver (absent from a bulk users file, or tobedeleted) is kept, unable to sign in, before being deleted (at least 1: an import deletes the expired leavers of the schools it covers).',
      default: ROSTER_DEFAULTS.retention_days
    },
    mass_removal_percent: {
      type: 'number',
      minimum: 0,
      maximum: 100,
      description: 'An import whose leavers, or people it newly disables, are more than this share of a school\'s roster-managed users, or that removes more than this share of a school\'s classes, is refused unless --allow-mass-removal is given.',
      default: ROSTER_DEFAULTS.mass_removal_percent
    },
    types: {
      type: 'object',
      description: 'The user type for each OneRoster role (lower case); roles left out keep their default mapping.',
      propertyNames: {
        pattern: '^[a-z][a-zA-Z]{0,31}$'
      },
      additionalProperties: {
        '$ref': '#/definitions/user_type'
      },
      default: ROSTER_TYPES_DEFAULT
    },
    roster_id_from: {
      type: 'string',
      pattern: '^[A-Za-z][A-Za-z0-9_.:-]{0,99}$',
      description: 'Which source field fills the roster_id claim: sourcedId, identifier, a userIds entry (userIds.<type>), another column by its header, or none.',
      default: ROSTER_DEFAULTS.roster_id_from
    }
  }
} as const;
