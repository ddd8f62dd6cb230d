import type { RosterImportRun } from '../../../adapters/store.js';
import type { KindPlan, PlanError, PlanKind } from '../../roster/plan/plan-types.js';
import type { ShownPlan } from '../roster-uploads.js';
import { KINDS } from './roster-schemas.js';

/** /school/api's JSON of roster plans and imports (roster-schemas.ts). */

const STORED: Record<(typeof KINDS)[number], PlanKind> = {
  users: 'users', classes: 'classes', enrollments: 'enrollments', organisations: 'organisations', academic_sessions: 'academicSessions',
};

const problemJson = (e: PlanError) => ({ file: e.file, line: e.line, column: e.column, ...(e.value !== undefined ? { value: e.value } : {}), message: e.message });

const kindJson = (k: KindPlan) => ({
  added: k.added.map((n) => ({ organisation: n.organisation, name: n.name })),
  changed: k.changed.map((c) => ({
    organisation: c.organisation, name: c.name,
    fields: c.fields.map((f) => ({ field: f.field, ...(f.from !== undefined ? { from: f.from } : {}), ...(f.to !== undefined ? { to: f.to } : {}) })),
  })),
  unchanged: k.unchanged,
  leaving: k.leaving.map((n) => ({ organisation: n.organisation, name: n.name })),
});

export const rosterPlanJson = (p: ShownPlan) => ({
  format: p.format,
  organisations: p.organisations,
  kinds: Object.fromEntries(KINDS.map((k) => [k, kindJson(p.kinds[STORED[k]])])),
  errors: p.errors.map(problemJson),
  mass_removal: p.massRemoval.map(problemJson),
  notes: p.notes,
  changes: p.changes,
  planned_at: p.plannedAt,
});

export const rosterImportJson = (r: RosterImportRun) => ({
  id: r.id, at: r.at, by: r.by, format: r.format, digest: r.digest, organisations: r.organisations,
  counts: Object.fromEntries(KINDS.flatMap((k) => (r.counts[STORED[k]] ? [[k, r.counts[STORED[k]]]] : []))),
});
