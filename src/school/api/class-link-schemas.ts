import { instant } from '../../http/openapi-parts.js';
import { CLASS_LINK_LENGTHS } from '../../accounts/class-link-length.js';
import { CLASS_LINK_MAX_HOURS, CLASS_LINK_MAX_MINUTES } from '../../accounts/class-links.js';

/**
 * The JSON schemas of /school/api's class links (docs/school-console.md → Class links): what POST takes, what it
 * answers (the code, once), and a live link as listed (never its code: Lanyard keeps only a keyed hash of it).
 */

export const classLinkBody = {
  description: `How long the link works, one of three ways; never more than ${CLASS_LINK_MAX_HOURS} hours.`,
  oneOf: [
    {
      type: 'object', required: ['minutes'], additionalProperties: false,
      properties: { minutes: { type: 'integer', minimum: 1, maximum: CLASS_LINK_MAX_MINUTES, description: 'From now: `60` for a lesson.' } },
    },
    {
      type: 'object', required: ['until'], additionalProperties: false,
      properties: { until: { ...instant, description: `An instant in the future (RFC 3339); one more than ${CLASS_LINK_MAX_HOURS} hours away is brought back to ${CLASS_LINK_MAX_HOURS} hours from now.` } },
    },
    {
      type: 'object', required: ['length'], additionalProperties: false,
      properties: {
        length: {
          type: 'string', enum: [...CLASS_LINK_LENGTHS],
          description: 'The console’s choices: an hour, two, or until the end of the school day (`school_day.ends` on the clock of `school_day.time_zone`; made after today’s end, tomorrow’s).',
        },
      },
    },
  ],
} as const;

export type ClassLinkBody = { minutes: number } | { until: string } | { length: (typeof CLASS_LINK_LENGTHS)[number] };

export const MadeClassLinkSchema = {
  $id: 'MadeClassLink',
  type: 'object',
  description: 'A class link just made: its code and link are in this answer only (Lanyard keeps a keyed hash of the code).',
  required: ['id', 'class_id', 'code', 'url', 'expires_at'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: '`{link_id}`: revoke it with DELETE …/links/{link_id}.' },
    class_id: { type: 'string' },
    code: { type: 'string', pattern: '^[0-9A-Z]{5}-[0-9A-Z]{5}$', description: 'The class code pupils type at `<issuer>/class` (spaces, dashes and case do not matter).' },
    url: { type: 'string', format: 'uri', description: 'The link (`<issuer>/class/<code>`): open it, or show it as a QR code, to see the class’s name tiles.' },
    expires_at: { ...instant, description: `When it stops working: at most ${CLASS_LINK_MAX_HOURS} hours from now.` },
  },
} as const;

export const ClassLinkSchema = {
  $id: 'ClassLink',
  type: 'object',
  description: 'A live class link: who made it, when, until when. Never its code.',
  required: ['id', 'class_id', 'made_by', 'created_at', 'expires_at'],
  additionalProperties: false,
  properties: {
    id: MadeClassLinkSchema.properties.id,
    class_id: { type: 'string' },
    made_by: { type: 'string', description: 'The name of the member of staff who made it (`cli:<os user>` for the command line).' },
    created_at: instant,
    expires_at: instant,
  },
} as const;

export const CLASS_LINK_SCHEMAS = [MadeClassLinkSchema, ClassLinkSchema];
