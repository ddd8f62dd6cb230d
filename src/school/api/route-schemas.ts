import { errorResponses } from '../../http/openapi-parts.js';
import { AUDIT_KINDS, FILTER_MAX_LENGTH } from '../audit/audit-query.js';
import { DEFAULT_USAGE_DAYS, MOST_USAGE_DAYS } from '../audit/usage.js';
import { REALM } from './auth.js';

/** The building blocks of /school/api's route schemas: path and query parameters, documented errors. */

const id = (description: string) => ({ type: 'string', minLength: 1, maxLength: 200, description }) as const;
const day = (description: string) => ({ type: 'string', format: 'date', description }) as const;

const org = id('The school’s slug (`slug` in GET /school/api/schools).');

export const orgParams = { type: 'object', required: ['org'], additionalProperties: false, properties: { org } } as const;
export const classParams = {
  type: 'object', required: ['org', 'class_id'], additionalProperties: false,
  properties: { org, class_id: id('The class’s id, or its roster sourcedId.') },
} as const;
export const personParams = {
  type: 'object', required: ['org', 'user_id'], additionalProperties: false,
  properties: { org, user_id: id('The person’s id (`id` of a pupil).') },
} as const;

export const clientParams = {
  type: 'object', required: ['org', 'client_id'], additionalProperties: false,
  properties: { org, client_id: id('The app’s client_id.') },
} as const;
export const staffRoleParams = {
  type: 'object', required: ['org', 'user_id', 'role'], additionalProperties: false,
  properties: { org, user_id: personParams.properties.user_id, role: { type: 'string', enum: ['admin', 'teacher'], description: 'The role to withdraw.' } },
} as const;

export type OrgParams = { org: string };
export type ClassParams = OrgParams & { class_id: string };
export type PersonParams = OrgParams & { user_id: string };
export type ClientParams = OrgParams & { client_id: string };
export type StaffRoleParams = PersonParams & { role: 'admin' | 'teacher' };

/** Events on one page unless `limit` says otherwise, and the most it may say. */
export const AUDIT_LIMIT = { default: 50, most: 500 } as const;

const filterText = (description: string) => ({ type: 'string', minLength: 1, maxLength: FILTER_MAX_LENGTH, description }) as const;

export const auditQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: day('The first day (UTC), included.'),
    to: day('The last day (UTC), included.'),
    person: filterText('Events of the people of the school whose name or username contains this (any case).'),
    user_id: filterText('Events of this person (as actor or subject).'),
    class_id: filterText('Events of the people of this class (its id or sourcedId).'),
    app: filterText('Events of this app (client_id); `lanyard` for Lanyard’s own pages.'),
    kind: { type: 'string', enum: [...AUDIT_KINDS] },
    before: { type: 'string', minLength: 1, maxLength: 400, description: 'The `next` of the page before: the events older than it.' },
    limit: { type: 'integer', minimum: 1, maximum: AUDIT_LIMIT.most, default: AUDIT_LIMIT.default },
  },
} as const;

export type AuditQueryParams = { from?: string; to?: string; person?: string; user_id?: string; class_id?: string; app?: string; kind?: string; before?: string; limit: number };

export const usageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: day(`The first day (UTC); by default ${DEFAULT_USAGE_DAYS - 1} days before \`to\`.`),
    to: day(`The last day (UTC); by default today (or ${DEFAULT_USAGE_DAYS - 1} days after \`from\`, if that is earlier). At most ${MOST_USAGE_DAYS} days at once.`),
  },
} as const;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request was refused: `fields` says which inputs and why.',
  401: `No valid token (\`WWW-Authenticate: Bearer realm="${REALM}"\`, with \`error="invalid_token"\` when a token was sent): missing, mistyped, expired, revoked, or its holder is no longer staff of any school.`,
  404: 'No such school, class, person or app — or one the token’s holder may not see (another school; a class not theirs; for a teacher, the admin-only routes). The API never says which.',
  409: 'The state does not allow it now (`conflict`, `roster_busy`): `error_description` says why.',
  413: 'The request body is larger than this route takes.',
  415: 'The request body is not of a type this route takes.',
  500: 'Lanyard failed; the error is logged.',
  503: 'The store is unavailable: try again after `Retry-After` seconds.',
};

/** The error responses a route can give: 401, 500 and 503 on every authenticated route, plus the ones listed. */
export const errors = errorResponses(ERROR_DESCRIPTIONS);
