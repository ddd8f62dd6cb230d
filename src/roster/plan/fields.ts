import type { FieldChange, KindPlan, RecordName } from './plan-types.js';

/**
 * Comparing a stored record with the one the files describe, field by field, and keeping a kind's plan in
 * the order people read it.
 */

export type FieldValue = string | readonly string[] | boolean | undefined;

/** How a value reads in a change: lists joined by commas, yes/no, empty as undefined. */
function shown(v: FieldValue): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return v === '' ? undefined : v;
  return v.length ? v.join(', ') : undefined;
}

/** The fields that differ, in the order given: [field name, stored value, new value]. */
export function fieldChanges(fields: [string, FieldValue, FieldValue][]): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, from, to] of fields) {
    const a = shown(from);
    const b = shown(to);
    if (a !== b) changes.push({ field, from: a, to: b });
  }
  return changes;
}

/** Code-unit order: the same on every machine and locale. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const byName = (a: RecordName, b: RecordName): number => byText(a.organisation, b.organisation) || byText(a.name, b.name);

/** Sorts a kind's lists by organisation, then name. */
export function sortKindPlan(k: KindPlan): KindPlan {
  k.added.sort(byName);
  k.changed.sort(byName);
  k.leaving.sort(byName);
  return k;
}

/** A case-insensitive key (ASCII letters only, as the stores compare usernames) within an organisation. */
export const orgKey = (organisationId: string, name: string): string =>
  `${organisationId}\u0000${name.replace(/[A-Z]/g, (c) => c.toLowerCase())}`;

/** An exact key within an organisation (source ids). */
export const idKey = (organisationId: string, id: string): string => `${organisationId}\u0000${id}`;
