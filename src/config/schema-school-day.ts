import { SCHOOL_DAY_DEFAULTS } from './defaults.js';

/**
 * The configuration file's `school_day` section (src/config/schema.ts CONFIG_SCHEMA → properties.school_day):
 * when the school day ends, which bounds how long a help code works (docs/childrens-sign-in.md → Help codes).
 * The time zone's name is checked against the IANA database by src/config/file.ts (a schema cannot).
 */
export const SCHOOL_DAY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  description: 'When the school day ends: a help code works until then, and at most 8 hours (docs/childrens-sign-in.md → Help codes). Every field is optional.',
  properties: {
    ends: {
      type: 'string',
      pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
      description: 'The end of the school day, HH:MM on a 24-hour clock, in time_zone. A help code issued after it works for 8 hours.',
      default: SCHOOL_DAY_DEFAULTS.ends
    },
    time_zone: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'The schools\' time zone, an IANA name such as Europe/London or America/New_York.',
      default: SCHOOL_DAY_DEFAULTS.time_zone
    }
  }
} as const;
