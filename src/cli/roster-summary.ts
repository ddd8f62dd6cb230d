import type { User } from '../../adapters/store.js';
import type { ImportResult } from '../roster/import-roster.js';
import { countsOf, type FieldChange, KIND_LABELS, type KindCounts, type PlanError, type PlanKind, PLAN_KINDS } from '../roster/plan/plan-types.js';
import { tableLines } from './table.js';

/**
 * What `lanyard roster import` prints (docs/rostering.md → Importing): a readable summary of the plan, or
 * with --json exactly one JSON object.
 */

/** How many field changes, leavers and errors the summary lists before "… and N more". */
export const SHOWN = 20;

/** The JSON kinds, in the order of the documented object. */
const JSON_KINDS: PlanKind[] = ['users', 'classes', 'enrollments', 'organisations', 'academicSessions'];

export interface RosterJson {
  counts: Record<PlanKind, KindCounts>;
  errors: { file: string; line: number; column: string; value?: string; message: string }[];
  applied: boolean;
}

/** The --json object: counts per kind, every error, whether it was applied. */
export function rosterJson(result: ImportResult): RosterJson {
  return {
    counts: Object.fromEntries(JSON_KINDS.map((k) => [k, countsOf(result.plan.kinds[k])])) as Record<PlanKind, KindCounts>,
    errors: result.plan.errors.map((e) => ({ file: e.file, line: e.line, column: e.column, ...(e.value !== undefined ? { value: e.value } : {}), message: e.message })),
    applied: result.applied,
  };
}

/** The --json object when nothing could be planned (another import at work, files that are not a roster). */
export function failedJson(path: string, message: string): RosterJson {
  const zero = { added: 0, changed: 0, unchanged: 0, leaving: 0 };
  return {
    counts: Object.fromEntries(JSON_KINDS.map((k) => [k, { ...zero }])) as Record<PlanKind, KindCounts>,
    errors: [{ file: path, line: 0, column: '', message }],
    applied: false,
  };
}

const quoted = (v: string | undefined) => (v === undefined ? '(none)' : JSON.stringify(v));
const fieldText = (f: FieldChange) => `${f.field} ${quoted(f.from)} → ${quoted(f.to)}`;

/** `users.csv:7 role "wizard" — the role "wizard" has no user type…`. */
export function errorLine(e: PlanError): string {
  const where = e.line > 0 ? `${e.file}:${e.line}` : e.file;
  const what = [where, e.column, e.value !== undefined ? JSON.stringify(e.value) : ''].filter(Boolean).join(' ');
  return `${what ? `${what} — ` : ''}${e.message}`;
}

/** The readable summary's lines. */
export function summaryLines(result: ImportResult, o: { path: string; dryRun: boolean }): string[] {
  const { plan } = result;
  const several = plan.organisations.length > 1;
  const named = (n: { organisation: string; name: string }) => (several ? `${n.name} (${n.organisation})` : n.name);
  const orgs = plan.organisations.length > 5
    ? `${plan.organisations.length} organisations (${plan.organisations.slice(0, 5).join(', ')}, …)` : plan.organisations.join(', ') || 'no organisation';
  const lines = [`${o.path} (${result.format}) for ${orgs}:`];
  const rows = [['', 'ADDED', 'CHANGED', 'UNCHANGED', 'LEAVING']];
  for (const k of PLAN_KINDS) {
    const c = countsOf(plan.kinds[k]);
    rows.push([KIND_LABELS[k][0], String(c.added), String(c.changed), String(c.unchanged), String(c.leaving)]);
  }
  lines.push(...tableLines(rows, (column) => column > 0).map((l) => `  ${l}`));

  const changes = PLAN_KINDS.flatMap((k) => plan.kinds[k].changed.map((c) => `${KIND_LABELS[k][1]} ${named(c)}: ${c.fields.map(fieldText).join(', ')}`));
  lines.push(...listed('changes', changes));
  const leaving = PLAN_KINDS.flatMap((k) => plan.kinds[k].leaving.map((n) => `${KIND_LABELS[k][1]} ${named(n)}`));
  lines.push(...listed('leaving', leaving));
  lines.push(...listed('notes', plan.notes));
  lines.push(...listed('errors', plan.errors.map(errorLine), Infinity));
  lines.push(outcome(result, o.dryRun));
  if (result.purged.length) lines.push(purgedLine(result.purged, 'deleted', 'whose retention period was over'));
  return lines;
}

function listed(title: string, items: string[], limit = SHOWN): string[] {
  if (!items.length) return [];
  const shown = items.slice(0, limit).map((i) => `  ${i}`);
  if (items.length > limit) shown.push(`  … and ${items.length - limit} more`);
  return [`${title} (${items.length}):`, ...shown];
}

function outcome(result: ImportResult, dryRun: boolean): string {
  const n = result.plan.errors.length;
  if (n) return `not applied: ${n} error${n === 1 ? '' : 's'}; nothing was written`;
  if (result.applied) return `applied; recorded as import ${result.run!.id}`;
  if (dryRun) return 'dry run: nothing was written';
  return 'nothing to change: nothing was written';
}

/** `deleted 2 leavers whose retention period was over: ava.k, ben.b`. */
export function purgedLine(users: User[], verb: string, why: string): string {
  const names = users.slice(0, SHOWN).map((u) => u.username).join(', ');
  return `${verb} ${users.length} leaver${users.length === 1 ? '' : 's'} ${why}: ${names}${users.length > SHOWN ? ', …' : ''}`;
}
