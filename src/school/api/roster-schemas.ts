import { instant } from '../../http/openapi-parts.js';

/**
 * The JSON schemas of /school/api's roster routes (schemas.ts says how they are used): an import's plan — per
 * kind the records added, changed field by field, unchanged and leaving, every error with its file and line —
 * what became of it, and the history of applied imports.
 */

const named = {
  type: 'object', required: ['organisation', 'name'], additionalProperties: false,
  properties: { organisation: { type: 'string', description: 'The school’s slug.' }, name: { type: 'string', description: 'A username, a class’s title…' } },
} as const;

const kindPlan = {
  type: 'object',
  required: ['added', 'changed', 'unchanged', 'leaving'],
  additionalProperties: false,
  properties: {
    added: { type: 'array', items: named },
    changed: {
      type: 'array',
      items: {
        type: 'object', required: ['organisation', 'name', 'fields'], additionalProperties: false,
        properties: {
          ...named.properties,
          fields: {
            type: 'array',
            items: {
              type: 'object', required: ['field'], additionalProperties: false,
              properties: { field: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
              description: 'A field and its values before and after (absent: empty).',
            },
          },
        },
      },
    },
    unchanged: { type: 'integer', minimum: 0 },
    leaving: { type: 'array', items: named },
  },
} as const;

const problem = {
  type: 'object', required: ['file', 'line', 'column', 'message'], additionalProperties: false,
  properties: {
    file: { type: 'string' },
    line: { type: 'integer', minimum: 0, description: '1-based; 0 for the file as a whole.' },
    column: { type: 'string', description: 'The column’s header; empty for the row or file as a whole.' },
    value: { type: 'string', description: 'The value refused (never a password).' },
    message: { type: 'string' },
  },
} as const;

export const KINDS = ['users', 'classes', 'enrollments', 'organisations', 'academic_sessions'] as const;

export const RosterPlanSchema = {
  $id: 'RosterPlan',
  type: 'object',
  description: 'What importing the export does, planned against Lanyard’s roster as it was then. Nothing is applied while there is an error.',
  required: ['format', 'organisations', 'kinds', 'errors', 'mass_removal', 'notes', 'changes', 'planned_at'],
  additionalProperties: false,
  properties: {
    format: { type: 'string', description: '`oneroster-1.1`, `oneroster-1.2` or `one-file`.' },
    organisations: { type: 'array', items: { type: 'string' }, description: 'The slugs of the schools it covers.' },
    kinds: { type: 'object', required: [...KINDS], additionalProperties: false, properties: Object.fromEntries(KINDS.map((k) => [k, kindPlan])) },
    errors: { type: 'array', items: problem, description: 'Every error, with its file, line and reason (the mass-removal guard’s among them).' },
    mass_removal: { type: 'array', items: problem, description: 'The mass-removal guard’s errors: what `allow_mass_removal=true` lets through.' },
    notes: { type: 'array', items: { type: 'string' }, description: 'Things worth knowing that stop nothing.' },
    changes: { type: 'boolean', description: 'Whether applying it writes anything.' },
    planned_at: instant,
  },
} as const;

export const RosterResultSchema = {
  $id: 'RosterResult',
  type: 'object',
  description: 'What became of an uploaded export: its plan, and whether it was applied (and if not, why not).',
  required: ['applied', 'plan'],
  additionalProperties: false,
  properties: {
    applied: { type: 'boolean', description: 'Whether anything was written (false for a dry run, a plan with nothing to change, or a refusal).' },
    run_id: { type: 'string', description: 'The applied import’s id (in GET …/roster/imports).' },
    refused: {
      type: 'string', enum: ['plan_errors', 'mass_removal', 'stale'],
      description: '`plan_errors`: the plan has errors; `mass_removal`: too many would leave (send `allow_mass_removal=true` if they really are); `stale`: the roster changed while it was planned (send it again).',
    },
    message: { type: 'string', description: 'What happened, for people.' },
    plan: { $ref: 'RosterPlan#' },
  },
} as const;

const counts = {
  type: 'object', required: ['added', 'changed', 'unchanged', 'leaving'], additionalProperties: false,
  properties: Object.fromEntries(['added', 'changed', 'unchanged', 'leaving'].map((k) => [k, { type: 'integer', minimum: 0 }])),
} as const;

export const RosterImportSchema = {
  $id: 'RosterImport',
  type: 'object',
  description: 'An applied roster import (one that changed nothing wrote nothing and is not listed).',
  required: ['id', 'at', 'by', 'format', 'digest', 'organisations', 'counts'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    at: instant,
    by: { type: 'string', description: '`console:<username>` (the console), `api:<username>` (this API), `cli:<os user>` (the operator).' },
    format: { type: 'string' },
    digest: { type: 'string', description: 'SHA-256 (hex) over the files read.' },
    organisations: { type: 'array', items: { type: 'string' } },
    counts: { type: 'object', additionalProperties: counts, description: 'Per kind (`users`, `classes`, `enrollments`, `organisations`, `academic_sessions`).' },
  },
} as const;

export const ROSTER_SCHEMAS = [RosterPlanSchema, RosterResultSchema, RosterImportSchema];
