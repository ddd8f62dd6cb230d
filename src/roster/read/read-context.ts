import type {
  SourceAcademicSession, SourceClass, SourceCourse, SourceEnrollment, SourceKind, SourceMode, SourceOrg, SourcePlace, SourceUser,
} from '../source.js';
import type { Row } from './csv-table.js';
import type { OneRosterVersion } from './oneroster-vocabulary.js';
import type { Problems } from './problems.js';
import { Interner, isDate, isoDateTime } from './values.js';

/** What every record read carries (source.ts's SourceRecord). */
export interface RecordBase {
  sourcedId: string;
  status: 'active' | 'tobedeleted';
  modifiedAt?: string | undefined;
  at: SourcePlace;
}

/** The records of each kind read so far, by sourcedId (in the file's order). */
export interface Known {
  orgs: Map<string, SourceOrg>;
  academicSessions: Map<string, SourceAcademicSession>;
  courses: Map<string, SourceCourse>;
  classes: Map<string, SourceClass>;
  users: Map<string, SourceUser>;
  enrollments: Map<string, SourceEnrollment>;
}

/** One OneRoster export while it is read. */
export class ReadContext {
  readonly known: Known = {
    orgs: new Map(), academicSessions: new Map(), courses: new Map(), classes: new Map(), users: new Map(), enrollments: new Map(),
  };
  /** Kinds whose file is bulk but could not be read whole (its header, its size): references to them are not checked. */
  readonly unread = new Set<SourceKind>();
  /** Repeated values (ids referred to, roles, dates) kept once. */
  readonly intern = new Interner();
  private readonly instants = new Map<string, string | null>();
  private readonly dates = new Map<string, boolean>();
  /** Keeps one string per distinct value (for parseList). */
  readonly keep = (text: string): string => this.intern.of(text);

  constructor(
    readonly version: OneRosterVersion,
    readonly modes: Record<SourceKind, SourceMode>,
    readonly problems: Problems,
  ) {}

  /** Whether a text is a calendar date (remembered: thousands of rows give the same dates). */
  isDate(text: string): boolean {
    let valid = this.dates.get(text);
    if (valid === undefined) {
      valid = isDate(text);
      if (this.dates.size > 10_000) this.dates.clear();
      this.dates.set(text, valid);
    }
    return valid;
  }

  /** `dateLastModified` as an ISO instant (undefined when empty; a problem when it is not a date-time). */
  modifiedAt(row: Row): string | undefined {
    const text = row.get('dateLastModified');
    if (text === undefined) return undefined;
    let iso = this.instants.get(text);
    if (iso === undefined) {
      iso = isoDateTime(text) ?? null;
      if (this.instants.size > 10_000) this.instants.clear();
      this.instants.set(text, iso);
    }
    if (iso === null) {
      row.problem('dateLastModified', 'not a date-time (ISO 8601, e.g. 2024-08-30T14:03:00.000Z)', text);
      return undefined;
    }
    return iso;
  }

  /**
   * A reference from a row to a record of another kind, checked only when that kind's file is in this
   * export as `bulk`: then it lists every record of the kind, and a reference to none of them is an error.
   * When the kind is `delta` or `absent` the record may already be in Lanyard, so the reference is left for
   * the planner to check against the store; so is a reference to a kind whose file could not be read whole
   * (that file's error says why, once). Returns the id (one string per distinct id).
   */
  refer(row: Row, kind: Exclude<SourceKind, 'enrollments'>, column: string, id: string): string {
    const known = this.known[kind].get(id);
    if (known) return known.sourcedId;
    if (this.modes[kind] === 'bulk' && !this.unread.has(kind)) row.problem(column, `no ${KIND_NOUN[kind]} with this sourcedId in ${kind}.csv`, id);
    return this.intern.of(id);
  }
}

const KIND_NOUN: Record<Exclude<SourceKind, 'enrollments'>, string> = {
  orgs: 'org', academicSessions: 'academic session', courses: 'course', classes: 'class', users: 'user',
};
