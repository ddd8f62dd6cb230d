import { instant } from '../../http/openapi-parts.js';

/**
 * The JSON schemas of /school/api's Apps routes (schemas.ts says how they are used): the school's apps in the
 * dashboard's order, the apps asking to be used by it, and the configuration file's apps offered to it.
 */

const app = {
  client_id: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  receives: {
    type: 'array',
    description: 'What the app receives about the people it signs in: each of its default scopes with the claims it carries.',
    items: {
      type: 'object', required: ['scope', 'claims'], additionalProperties: false,
      properties: { scope: { type: 'string' }, claims: { type: 'array', items: { type: 'string' }, description: 'Claim names (`given_name`, `email`…).' } },
    },
  },
} as const;

export const SchoolAppSchema = {
  $id: 'SchoolApp',
  type: 'object',
  description: 'An app the school uses.',
  required: ['client_id', 'name', 'status', 'place', 'source', 'user_types', 'changeable', 'receives'],
  additionalProperties: false,
  properties: {
    ...app,
    status: { type: 'string', description: 'The app’s own status: `live` signs people in; any other, no one.' },
    place: { type: 'integer', minimum: 1, description: 'Its place on the school’s dashboards (1 is the first).' },
    source: {
      type: 'string', enum: ['school', 'operator', 'config', 'every_school'],
      description: 'Who connected it: a school admin, the operator, the configuration file’s list for this school; `every_school`: a configuration-file app of every school, not connected by the school (connect it to choose who uses it and where).',
    },
    user_types: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }], description: 'Only these user types may use it; null: everyone.' },
    changeable: { type: 'boolean', description: 'Whether a school admin may change who uses it, move it and stop using it (not the configuration file’s connections).' },
  },
} as const;

export const AppRequestSchema = {
  $id: 'AppRequest',
  type: 'object',
  description: 'An app asking to be used by the school (approve or decline it), or one the school declined.',
  required: ['client_id', 'name', 'status', 'team', 'requested_at', 'receives'],
  additionalProperties: false,
  properties: {
    ...app,
    status: { type: 'string', enum: ['pending', 'declined'] },
    team: { type: 'array', items: { type: 'string' }, description: 'The names of its developers.' },
    note: { type: 'string', description: 'The developers’ note to the school.' },
    requested_at: instant,
    answer: { type: 'string', description: 'The reason the school declined it.' },
    answered_at: instant,
  },
} as const;

export const OfferedAppSchema = {
  $id: 'OfferedApp',
  type: 'object',
  description: 'A configuration-file app offered to schools that this school does not use: connect it to use it.',
  required: ['client_id', 'name', 'receives'],
  additionalProperties: false,
  properties: app,
} as const;

export const AppsSchema = {
  $id: 'Apps',
  type: 'object',
  description: 'The school’s apps, the apps asking to be used by it, and the apps offered to it.',
  required: ['connections', 'requests', 'offered'],
  additionalProperties: false,
  properties: {
    connections: { type: 'array', items: { $ref: 'SchoolApp#' }, description: 'In the dashboard’s order.' },
    requests: { type: 'array', items: { $ref: 'AppRequest#' }, description: 'Pending first, then declined.' },
    offered: { type: 'array', items: { $ref: 'OfferedApp#' }, description: 'By name.' },
  },
} as const;

export const APP_SCHEMAS = [SchoolAppSchema, AppRequestSchema, OfferedAppSchema, AppsSchema];
