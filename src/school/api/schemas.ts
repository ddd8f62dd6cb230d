import { instant } from '../../http/openapi-parts.js';
import { AUDIT_KINDS } from '../audit/audit-query.js';

/**
 * The JSON schemas of what /school/api answers, shared by response serialisation and the OpenAPI document (each
 * `$id` becomes `#/components/schemas/<$id>`): one source, so the document cannot drift from the answers
 * (docs/school-console.md → The school API). Absent values are left out, never null, except where a schema
 * says null.
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
      description: 'A stable code: `invalid_request` (400, 413, 415), `connection_refused` and `roster_unreadable` (400), `unauthenticated`/`invalid_token` (401), '
        + '`not_found` (404), `conflict` and `roster_busy` (409), `server_error` (500), `temporarily_unavailable` (503).',
    },
    error_description: { type: 'string', description: 'What went wrong, for people.' },
    fields: {
      type: 'array',
      items: {
        type: 'object', required: ['path', 'message'], additionalProperties: false,
        properties: { path: { type: 'string', description: 'JSON pointer of the refused value, e.g. `/from`.' }, message: { type: 'string' } },
      },
    },
  },
} as const;

export const SchoolSchema = {
  $id: 'School',
  type: 'object',
  description: 'A school the token’s holder works in, and as what.',
  required: ['id', 'slug', 'name', 'roles'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    slug: { type: 'string', description: 'The school’s address: `{org}` in the other paths.' },
    name: { type: 'string' },
    roles: {
      type: 'array', items: { type: 'string', enum: ['admin', 'teacher'] },
      description: '`admin`: every class and person of the school, its audit trail and use; `teacher`: their classes and those classes’ pupils.',
    },
  },
} as const;

export const ClassSchema = {
  $id: 'Class',
  type: 'object',
  description: 'A class the token’s holder may see: a teacher’s own, or every class for a school admin.',
  required: ['id', 'title', 'teachers', 'pupils'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: '`{class_id}` in the other paths (the roster’s sourcedId is accepted there too).' },
    sourced_id: { type: 'string', description: 'The class’s id in the school’s information system (OneRoster sourcedId).' },
    title: { type: 'string' },
    teachers: { type: 'array', items: { type: 'string' }, description: 'Their names.' },
    pupils: { type: 'integer', minimum: 0, description: 'How many pupils are enrolled.' },
  },
} as const;

const METHOD = { type: 'string', enum: ['password', 'emoji', 'badge'] } as const;

export const PupilSchema = {
  $id: 'Pupil',
  type: 'object',
  description: 'A pupil of a class, with the ways they sign in.',
  required: ['id', 'username', 'given_name', 'family_name', 'methods', 'locked', 'locked_methods', 'suspended', 'last_sign_in'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: '`{user_id}` in the people paths.' },
    username: { type: 'string' },
    given_name: { type: 'string' },
    family_name: { type: 'string' },
    methods: { type: 'array', items: METHOD, description: 'The ways in that are set: a password, an emoji password, a badge.' },
    locked: { type: 'boolean', description: 'Whether a way in is stopped after too many wrong tries, until staff unlock it.' },
    locked_methods: { type: 'array', items: { type: 'string' }, description: 'Which: `password`, `emoji`, `help_code`.' },
    suspended: { type: 'boolean', description: 'Suspended by a school admin: no sign-in by any method.' },
    roster_hold: { type: 'string', enum: ['left', 'disabled'], description: 'Present when the roster holds them (left the school, or disabled in its system): no sign-in.' },
    last_sign_in: { anyOf: [instant, { type: 'null' }], description: 'The last successful sign-in; null when they never signed in.' },
  },
} as const;

export const PersonSchema = {
  $id: 'Person',
  type: 'object',
  description: 'A person of the school after a change.',
  required: ['id', 'username', 'given_name', 'family_name', 'suspended'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    username: { type: 'string' },
    given_name: { type: 'string' },
    family_name: { type: 'string' },
    suspended: { type: 'boolean' },
  },
} as const;

export const AuditEventSchema = {
  $id: 'AuditEvent',
  type: 'object',
  description: 'One event of the school’s audit trail. Names are the ones recorded then (a later rename does not rewrite history). Never holds a secret.',
  required: ['id', 'at', 'kind', 'action', 'count'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    at: { ...instant, description: 'When (for a merged row of failures: the latest).' },
    kind: { type: 'string', enum: [...AUDIT_KINDS] },
    action: { type: 'string', description: 'What exactly, as a stable dotted word: `sign_in`, `launch`, `emoji.reset`, `user.suspended`, `roster.applied`…' },
    actor_id: { type: 'string', description: 'Who did it: a user id, `operator` or `system`; for a sign-in, the person signing in.' },
    actor_name: { type: 'string' },
    subject_id: { type: 'string', description: 'The person it concerns.' },
    subject_name: { type: 'string' },
    method: { type: 'string', description: 'How they signed in: `password`, `emoji`, `badge`, `help_code`…' },
    device_kind: { type: 'string', description: '`classroom` (a trusted classroom device), `known` (their own device), `other`.' },
    client_id: { type: 'string', description: 'The app signed in to or opened; `lanyard` for Lanyard’s own pages.' },
    class_id: { type: 'string' },
    result: { type: 'string', description: '`success`, or why not: `wrong_credential`, `locked`, `suspended`, `throttled`…' },
    source: { type: 'string', description: 'The client address a sign-in came from.' },
    count: { type: 'integer', minimum: 1, description: 'How many events this row stands for: failed sign-ins from one source, for one pupil and method, in one day, are merged.' },
    detail: { type: 'object', additionalProperties: { type: 'string' }, description: 'Non-secret details (`via`: `console` or `api`; an import’s counts…).' },
  },
} as const;

export const AuditPageSchema = {
  $id: 'AuditPage',
  type: 'object',
  description: 'One page of events, newest first.',
  required: ['events', 'next'],
  additionalProperties: false,
  properties: {
    events: { type: 'array', items: { $ref: 'AuditEvent#' } },
    next: { type: ['string', 'null'], description: 'Send it as `before` for the next (older) page; null on the last page.' },
  },
} as const;

const COUNTS = { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } } as const;

export const UsageSchema = {
  $id: 'Usage',
  type: 'object',
  description: 'The school’s use per UTC day, every day of the range included (with zeros).',
  required: ['from', 'to', 'days', 'totals'],
  additionalProperties: false,
  properties: {
    from: { type: 'string', format: 'date' },
    to: { type: 'string', format: 'date' },
    days: {
      type: 'array',
      items: {
        type: 'object',
        required: ['day', 'sign_ins', 'sign_ins_by_method', 'by_app', 'failures'],
        additionalProperties: false,
        properties: {
          day: { type: 'string', format: 'date' },
          sign_ins: { type: 'integer', minimum: 0, description: 'Successful sign-ins, every method together.' },
          sign_ins_by_method: { ...COUNTS, description: 'Successful sign-ins by method.' },
          by_app: { ...COUNTS, description: 'Sign-ins and launches by app (client_id).' },
          failures: { type: 'integer', minimum: 0, description: 'Failed sign-ins (merged rows counted by their count).' },
        },
      },
    },
    totals: {
      type: 'object',
      required: ['sign_ins', 'sign_ins_by_method', 'by_app', 'failures'],
      additionalProperties: false,
      properties: { sign_ins: { type: 'integer', minimum: 0 }, sign_ins_by_method: COUNTS, by_app: COUNTS, failures: { type: 'integer', minimum: 0 } },
    },
  },
} as const;

/** Every shared schema, registered on the API's scope. */
export const SHARED_SCHEMAS = [ErrorSchema, SchoolSchema, ClassSchema, PupilSchema, PersonSchema, AuditEventSchema, AuditPageSchema, UsageSchema];
