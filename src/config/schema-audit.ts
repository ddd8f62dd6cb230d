import { AUDIT_DEFAULTS } from './defaults.js';

/**
 * The configuration file's `audit` section (src/config/schema.ts CONFIG_SCHEMA → properties.audit): how long the
 * schools' audit trail is kept, and whether it is written at all (docs/configuration.md, docs/storage.md → The
 * audit trail). Its own module so the schema file stays readable.
 */
export const AUDIT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  description: 'The schools\' audit trail: sign-ins, launches, credential changes, imports and console actions (docs/storage.md → The audit trail). Every field is optional.',
  properties: {
    retention_days: {
      type: 'integer',
      minimum: 1,
      maximum: 3650,
      description: 'Days an event is kept; older ones are deleted by the running server once an hour.',
      default: AUDIT_DEFAULTS.retention_days
    },
    enabled: {
      type: 'boolean',
      description: 'false: nothing is recorded. Only for measuring what the trail costs (`npm run bench`); a school relies on it, and it is refused with NODE_ENV=production.',
      default: AUDIT_DEFAULTS.enabled
    }
  }
} as const;
