import { instant } from '../../http/openapi-parts.js';
import { EMOJI_BANK, EMOJI_PASSWORD_LENGTH } from '../../formats/emoji-bank.js';

/**
 * The JSON schemas of what /school/api's help-code, credential and staff routes answer (schemas.ts says how
 * they are used). A code, emoji password or password is in the one answer that made it, and nowhere else.
 */

const person = {
  user_id: { type: 'string', description: 'The person’s id.' },
  username: { type: 'string' },
  given_name: { type: 'string' },
  family_name: { type: 'string' },
} as const;

export const IssuedHelpCodeSchema = {
  $id: 'IssuedHelpCode',
  type: 'object',
  description: 'A help code just given: shown in this answer only (Lanyard keeps a keyed hash of it). It replaces the pupil’s earlier code.',
  required: ['user_id', 'code', 'expires_at'],
  additionalProperties: false,
  properties: {
    user_id: person.user_id,
    code: { type: 'string', pattern: '^[0-9]{6}$', description: 'Six digits the pupil types once, with their username, instead of their credential.' },
    expires_at: { ...instant, description: 'The end of the school day, and at most 8 hours from now.' },
  },
} as const;

export const HelpCodeSchema = {
  $id: 'HelpCode',
  type: 'object',
  description: 'A live help code: whose, who gave it, until when. Never the code itself.',
  required: ['user_id', 'username', 'given_name', 'family_name', 'issued_by', 'expires_at'],
  additionalProperties: false,
  properties: { ...person, issued_by: { type: 'string', description: 'The name of the member of staff who gave it.' }, expires_at: instant },
} as const;

export const EmojiPasswordSchema = {
  $id: 'EmojiPassword',
  type: 'object',
  description: 'A new emoji password, in this answer only: the earlier one no longer works, and the person is signed out everywhere.',
  required: ['user_id', 'emoji'],
  additionalProperties: false,
  properties: {
    user_id: person.user_id,
    emoji: {
      type: 'array', minItems: EMOJI_PASSWORD_LENGTH, maxItems: EMOJI_PASSWORD_LENGTH,
      items: { type: 'string', enum: EMOJI_BANK.map(([name]) => name) },
      description: 'The pictures, in order, by the names a screen reader says (`cat`, `rocket`, `ice cream`…).',
    },
  },
} as const;

export const GeneratedPasswordSchema = {
  $id: 'GeneratedPassword',
  type: 'object',
  description: 'A password Lanyard made up, in this answer only: the earlier one no longer works, and the person is signed out everywhere.',
  required: ['user_id', 'password'],
  additionalProperties: false,
  properties: { user_id: person.user_id, password: { type: 'string' } },
} as const;

export const StaffPersonSchema = {
  $id: 'StaffPerson',
  type: 'object',
  description: 'A member of the school’s staff with every role they hold there and where it comes from.',
  required: ['user_id', 'username', 'given_name', 'family_name', 'two_step', 'roles'],
  additionalProperties: false,
  properties: {
    ...person,
    two_step: { type: 'boolean', description: 'Whether they have two-step sign-in on (a school admin must).' },
    roles: {
      type: 'array',
      items: {
        type: 'object', required: ['role', 'source'], additionalProperties: false,
        properties: {
          role: { type: 'string', enum: ['admin', 'teacher'] },
          source: {
            type: 'string', enum: ['console', 'operator', 'config', 'roster', 'classes'],
            description: 'Granted in the console (or this API), by the operator, by the configuration file, by the roster (its administrator role); `classes`: the roster enrols them to teach classes (not a grant: it comes and goes with the roster).',
          },
          granted_at: instant,
          granted_by: { type: 'string', description: 'The user id of the school admin who granted it in the console.' },
          class_ids: { type: 'array', items: { type: 'string' }, description: 'For `classes`: the classes they teach.' },
        },
      },
    },
  },
} as const;

export const ACTION_SCHEMAS = [IssuedHelpCodeSchema, HelpCodeSchema, EmojiPasswordSchema, GeneratedPasswordSchema, StaffPersonSchema];
