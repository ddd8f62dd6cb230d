import type { Organisation, RosterChanges } from '../../../adapters/store.js';
import type { RosterSettings } from '../../config/roster.js';
import type { SourceError } from '../source.js';

/**
 * What `lanyard roster import` will do, computed before anything is written (docs/rostering.md → Importing):
 * per kind the records added, changed (field by field), unchanged and leaving; every error; and the one
 * RosterChanges that does it. Nothing is applied while there is an error.
 */

/** The kinds a plan counts, in the order the summary lists them. */
export const PLAN_KINDS = ['organisations', 'academicSessions', 'classes', 'users', 'enrollments'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

/** Each kind as people read it: [plural, singular] (the command's summary, the console's plan page). */
export const KIND_LABELS: Record<PlanKind, readonly [string, string]> = {
  organisations: ['organisations', 'organisation'],
  academicSessions: ['academic sessions', 'academic session'],
  classes: ['classes', 'class'],
  users: ['users', 'user'],
  enrollments: ['enrolments', 'enrolment'],
};

/** One field of one record: what it was and what it becomes (undefined: empty). */
export interface FieldChange {
  field: string;
  from: string | undefined;
  to: string | undefined;
}

/** A record that changes, named as people know it (a username, a class title) in its organisation (slug). */
export interface RecordChange {
  organisation: string;
  name: string;
  fields: FieldChange[];
}

/** A record added or leaving, by name. */
export interface RecordName {
  organisation: string;
  name: string;
}

/** One kind's part of the plan. */
export interface KindPlan {
  added: RecordName[];
  changed: RecordChange[];
  unchanged: number;
  leaving: RecordName[];
}

export interface KindCounts { added: number; changed: number; unchanged: number; leaving: number }

/** The planner's own problems are shaped as the reader's (a file, a line, a column, a value, why). */
export type PlanError = SourceError;

/**
 * The roster's school admins (docs/rostering.md → School admins): what the files say about who is an
 * administrator where, from which the import keeps the admin grants it made (source `roster`) in step.
 */
export interface RosterAdmins {
  /** Each person whose roles the files give, with the organisations (ids) where they are an administrator (none: []). */
  people: { userId: string; username: string; organisationIds: string[] }[];
  /** People who leave with this import: none of their roster grants stays. */
  leaving: string[];
  /** Organisations whose whole list of people the files give (a bulk users file): a roster grant there of anyone else goes. */
  whole: string[];
}

export interface Plan {
  kinds: Record<PlanKind, KindPlan>;
  errors: PlanError[];
  /**
   * The mass-removal guard's errors (also in `errors`): what confirming the removal (--allow-mass-removal, the
   * console's box) would let through. Empty when the removal was confirmed or nothing trips the guard.
   */
  massRemoval: PlanError[];
  /** Things worth knowing that stop nothing (the reader's, then the planner's). */
  notes: string[];
  /** Everything to write, without the run record (importRoster adds it). */
  changes: Omit<RosterChanges, 'run'>;
  /** Slugs of the organisations the import covers, sorted. */
  organisations: string[];
  /** Who is a school admin where, by the files (kept in step with the grants after the changes are written). */
  admins: RosterAdmins;
}

/** What the planner needs besides the files and the stored roster. */
export interface PlanContext {
  /** Every organisation in the store (matched by sourceId, else by slug). */
  organisations: Organisation[];
  /** `--org SLUG`: the existing organisation a single-school export (or the one-file CSV) is for. */
  target?: Organisation | undefined;
  settings: RosterSettings;
  /** ISO 8601: when holds begin. */
  now: string;
  allowMassRemoval: boolean;
  /** A new record's id: `o`/`u` (adapters/store/ids.ts newId), `c` a class, `a` an academic session. */
  newId(kind: 'o' | 'u' | 'c' | 'a'): string;
}

export const emptyKindPlan = (): KindPlan => ({ added: [], changed: [], unchanged: 0, leaving: [] });

export const countsOf = (k: KindPlan): KindCounts =>
  ({ added: k.added.length, changed: k.changed.length, unchanged: k.unchanged, leaving: k.leaving.length });

/** Whether the changes write anything at all. */
export function changesNothing(c: Omit<RosterChanges, 'run'>): boolean {
  return !c.organisations.length && !c.users.length && !c.holds.length
    && !c.memberships.put.length && !c.memberships.remove.length
    && !c.academicSessions.put.length && !c.academicSessions.remove.length
    && !c.classes.put.length && !c.classes.remove.length
    && !c.enrolments.put.length && !c.enrolments.remove.length;
}
