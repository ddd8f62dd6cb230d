import type { Organisation, RosterChanges } from '../../../adapters/store.js';
import { RESERVED_SLUGS, SANDBOX_SLUG } from '../../config/reserved.js';
import type { RosterSource, SourceOrg } from '../source.js';
import { byText, fieldChanges, sortKindPlan } from './fields.js';
import { emptyKindPlan, type KindPlan, type PlanContext, type PlanError } from './plan-types.js';
import { slugFromName, uniqueSlug } from './slug.js';

/**
 * Which Lanyard organisation each school of the export is (docs/rostering.md → Importing). A source org of
 * type school, and a district that has people or classes of its own, is an organisation: the one with its
 * sourcedId, else the one whose slug its name gives (and that no other source id claimed), else a new one.
 * `--org SLUG` puts a single-school export, or a one-file CSV (which names no school), into that organisation.
 * An import never renames or removes an organisation; it only records the school's sourcedId on it.
 * A delta's rows that name no school (a minimal `tobedeleted` person, any 1.2 person without role rows, a
 * `tobedeleted` enrolment) reach every other organisation with a sourceId, without `--org` (see `reached`).
 */

/** A Lanyard organisation the import writes into (`isNew`: the import creates it). */
export interface OrgRef {
  id: string;
  slug: string;
  name: string;
  isNew: boolean;
}

export interface OrgMapping {
  /** Resolves an org's sourcedId as the files use it: the organisation it is, or belongs to. */
  resolve(orgSourcedId: string | undefined): OrgRef | undefined;
  /** Every organisation the import covers, by slug. */
  covered: OrgRef[];
  /**
   * Stored organisations with a sourceId the import does not cover, whose people and classes a delta row that
   * names no school is looked up in by sourcedId (a `tobedeleted` person or enrolment, a 1.2 person without
   * role rows). Their records are never compared with a bulk file; empty with `--org`, or when no row needs them.
   */
  reached: OrgRef[];
  plan: KindPlan;
  changes: RosterChanges['organisations'];
  errors: PlanError[];
  notes: string[];
}

/** Whether an org of the files becomes a Lanyard organisation. */
function mappedOrgs(source: RosterSource): SourceOrg[] {
  const referenced = new Set<string>();
  for (const u of source.users) if (u.status === 'active') for (const r of u.roles) referenced.add(r.orgSourcedId);
  for (const c of source.classes) if (c.status === 'active') referenced.add(c.schoolSourcedId);
  return source.orgs
    .filter((o) => o.status === 'active' && (o.type === 'school' || (o.type === 'district' && referenced.has(o.sourcedId))))
    .sort((a, b) => byText(a.sourcedId, b.sourcedId));
}

export function mapOrganisations(source: RosterSource, context: PlanContext): OrgMapping {
  const errors: PlanError[] = [];
  const notes: string[] = [];
  const plan = emptyKindPlan();
  const changes: RosterChanges['organisations'] = [];
  const stored = context.organisations.filter((o) => o.slug !== SANDBOX_SLUG);
  const bySourceId = new Map(stored.filter((o) => o.sourceId).map((o) => [o.sourceId!, o]));
  const bySlug = new Map(stored.map((o) => [o.slug, o]));
  const taken = new Set(context.organisations.map((o) => o.slug).concat(RESERVED_SLUGS));
  const refs = new Map<string, OrgRef>();
  const covered = new Map<string, OrgRef>();
  const mapped = mappedOrgs(source);
  let fallback: OrgRef | undefined;

  const existing = (o: Organisation): OrgRef => ({ id: o.id, slug: o.slug, name: o.name, isNew: false });
  /** Records the school's sourcedId on an existing organisation when it has another (or none). */
  const adopt = (o: Organisation, sourcedId: string) => {
    const fields = fieldChanges([['source_id', o.sourceId, sourcedId]]);
    if (fields.length) {
      plan.changed.push({ organisation: o.slug, name: o.slug, fields });
      changes.push({ id: o.id, slug: o.slug, name: o.name, sourceId: sourcedId });
    } else plan.unchanged += 1;
  };

  if (source.orgs.some((o) => o.status === 'tobedeleted')) notes.push('organisations marked tobedeleted are kept: an import never removes an organisation');
  if (context.target) {
    const target = context.target;
    fallback = existing(target);
    if (mapped.length > 1) {
      const first = mapped[1]!;
      errors.push({
        file: first.at.file, line: first.at.line, column: 'sourcedId', value: first.sourcedId,
        message: `--org ${target.slug} puts one school's export into one organisation, but this export has ${mapped.length} schools `
          + `(${mapped.map((o) => o.name).join(', ')}); leave out --org to import each as an organisation of its own`,
      });
    } else if (mapped.length === 1) {
      const school = mapped[0]!;
      const other = bySourceId.get(school.sourcedId);
      if (other && other.id !== target.id) {
        errors.push({
          file: school.at.file, line: school.at.line, column: 'sourcedId', value: school.sourcedId,
          message: `this school is already the organisation ${other.slug} in Lanyard, not ${target.slug}: import with --org ${other.slug}, or without --org`,
        });
      } else adopt(target, school.sourcedId);
      refs.set(school.sourcedId, fallback);
    } else plan.unchanged += 1;
    covered.set(fallback.id, fallback);
  } else {
    for (const school of mapped) {
      let org = bySourceId.get(school.sourcedId);
      const slug = slugFromName(school.name);
      const bySlugMatch = bySlug.get(slug);
      if (!org && bySlugMatch && !bySlugMatch.sourceId && ![...refs.values()].some((r) => r.id === bySlugMatch.id)) org = bySlugMatch;
      let ref: OrgRef;
      if (org) {
        adopt(org, school.sourcedId);
        ref = existing(org);
      } else {
        ref = { id: context.newId('o'), slug: uniqueSlug(slug, taken), name: school.name, isNew: true };
        taken.add(ref.slug);
        plan.added.push({ organisation: ref.slug, name: ref.slug });
        changes.push({ id: ref.id, slug: ref.slug, name: ref.name, sourceId: school.sourcedId });
      }
      refs.set(school.sourcedId, ref);
      covered.set(ref.id, ref);
    }
  }

  const parents = new Map(source.orgs.map((o) => [o.sourcedId, o.parentSourcedId]));
  const resolve = (id: string | undefined): OrgRef | undefined => {
    // A department or other sub-organisation belongs to the nearest school (or district) above it.
    for (let at = id, depth = 0; at !== undefined && depth < 16; at = parents.get(at), depth += 1) {
      const ref = refs.get(at);
      if (ref) return ref;
      if (!parents.has(at)) {
        const known = bySourceId.get(at);
        if (known && (!context.target || known.id === context.target.id)) return existing(known);
      }
    }
    return fallback && (id === undefined || !refs.size) ? fallback : undefined;
  };
  // A delta without an orgs file names schools Lanyard already knows by their sourcedId: they are covered too.
  const referenced = new Set<string>();
  for (const u of source.users) for (const r of u.roles) referenced.add(r.orgSourcedId);
  for (const c of source.classes) referenced.add(c.schoolSourcedId);
  for (const id of referenced) {
    const ref = resolve(id);
    if (ref && !covered.has(ref.id)) covered.set(ref.id, ref);
  }
  const placeable = source.users.some((u) => u.status === 'active' && u.roles.length) || source.classes.some((c) => c.status === 'active');
  if (!covered.size && placeable) {
    errors.push({
      file: source.orgs[0]?.at.file ?? source.users[0]?.at.file ?? source.classes[0]?.at.file ?? '', line: 0, column: '',
      message: 'this export names no school: give --org SLUG to import it into an existing organisation',
    });
  }
  const reached = context.target || !namesNoSchool(source) ? []
    : stored.filter((o) => o.sourceId && !covered.has(o.id)).map(existing).sort((a, b) => byText(a.slug, b.slug));
  return { resolve, covered: [...covered.values()].sort((a, b) => byText(a.slug, b.slug)), reached, plan: sortKindPlan(plan), changes, errors, notes };
}

/** Whether a delta row may name a person or enrolment of a school the files do not name. */
function namesNoSchool(source: RosterSource): boolean {
  return source.users.some((u) => u.status === 'tobedeleted' || !u.roles.length) || source.enrollments.some((e) => e.status === 'tobedeleted');
}
