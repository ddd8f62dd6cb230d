import type { Membership, RosterChanges, RosterSnapshot, RosterUser, User } from '../../../adapters/store.js';
import type { RosterSource, SourceUser } from '../source.js';
import { byText, fieldChanges, orgKey, sortKindPlan } from './fields.js';
import type { OrgMapping, OrgRef } from './organisations.js';
import { emptyKindPlan, type FieldChange, type KindPlan, type PlanContext, type PlanError } from './plan-types.js';
import { desiredUser, sourceUserType, userChanges, userFieldErrors } from './user-fields.js';

/**
 * The people of the export against the stored users of the organisations it covers (docs/rostering.md →
 * Importing, Leavers and retention). A person is the stored user with their sourcedId (in their own school
 * first), else the user of their own school with their username who has no sourcedId yet (made by hand or
 * the JSON import: the roster adopts them), else a new user. Their own school is their first primary role's.
 * Only users with a sourcedId are the roster's: only they can leave. A leaver (absent from a bulk users
 * file, or tobedeleted) is held `left`; a held person who is listed again is let back; `enabledUser` false
 * holds them `disabled`, true lifts that. A `left` hold is lifted only by the person being listed again as
 * active in a users file: not by an enrolment, nor by `users unsuspend`.
 * A delta row that names no school is the stored person with its sourcedId in any organisation with a
 * sourceId (OrgMapping.reached): a `tobedeleted` row leaves, a 1.2 row without role rows keeps the person's
 * own school, type and memberships; one that matches no one is a note (tobedeleted) or an error (a new person).
 */

export interface UserPlan {
  plan: KindPlan;
  users: RosterUser[];
  holds: RosterChanges['holds'];
  memberships: RosterChanges['memberships'];
  errors: PlanError[];
  /** The Lanyard id of a person of the files (active), by sourcedId. */
  idBySourcedId: Map<string, string>;
  /** Stored users (of the covered organisations) by sourceId, for files that list only some people. */
  storedBySourceId: Map<string, User>;
  /** Users who leave with this import. */
  leaving: Set<string>;
  /** Usernames by Lanyard id (stored and planned), for naming enrolments. */
  usernames: Map<string, string>;
  /** Users (stored or new) by Lanyard id, as they will be. */
  organisationOf: Map<string, string>;
  /** Stored users of the reached organisations (OrgMapping.reached) by sourceId, for delta rows naming no school. */
  reachedBySourceId: Map<string, User>;
  /** Reached organisations (by id) whose people this import changes: it covers them too. */
  touched: Set<string>;
  /** Each person whose roles the files give (Lanyard id) → the organisations (ids) where they are an administrator. */
  administrators: Map<string, string[]>;
  notes: string[];
}

interface Placed { ref: OrgRef; role: string; primary: boolean }

export function planUsers(source: RosterSource, snapshot: RosterSnapshot, orgs: OrgMapping, context: PlanContext): UserPlan {
  const plan = emptyKindPlan();
  const errors: PlanError[] = [];
  const out: UserPlan = {
    plan, errors, users: [], holds: [], memberships: { put: [], remove: [] }, idBySourcedId: new Map(), storedBySourceId: new Map(),
    leaving: new Set(), usernames: new Map(), organisationOf: new Map(), reachedBySourceId: new Map(), touched: new Set(),
    administrators: new Map(), notes: [],
  };
  const covered = new Set(orgs.covered.map((o) => o.id));
  const reachedOrgs = new Map(orgs.reached.map((o) => [o.id, o]));
  const slugs = new Map(context.organisations.map((o) => [o.id, o.slug]));
  for (const o of orgs.covered) slugs.set(o.id, o.slug);
  const slugOf = (id: string) => slugs.get(id) ?? id;
  const stored = snapshot.users.filter((u) => covered.has(u.organisationId)).sort((a, b) => byText(a.id, b.id));
  const bySourceId = new Map<string, User[]>();
  const byUsername = new Map<string, User>();
  for (const u of stored) {
    out.usernames.set(u.id, u.username);
    out.organisationOf.set(u.id, u.organisationId);
    byUsername.set(orgKey(u.organisationId, u.username), u);
    if (!u.sourceId) continue;
    const same = bySourceId.get(u.sourceId);
    if (same) same.push(u);
    else bySourceId.set(u.sourceId, [u]);
    if (!out.storedBySourceId.has(u.sourceId)) out.storedBySourceId.set(u.sourceId, u);
  }
  const reachedUsers = snapshot.users.filter((u) => reachedOrgs.has(u.organisationId)).sort((a, b) => byText(a.id, b.id));
  for (const u of reachedUsers) {
    out.usernames.set(u.id, u.username);
    out.organisationOf.set(u.id, u.organisationId);
    if (u.sourceId && !out.reachedBySourceId.has(u.sourceId)) out.reachedBySourceId.set(u.sourceId, u);
  }
  /** The stored person a delta row that names no school is: in a covered organisation first, else a reached one. */
  const storedPerson = (sourcedId: string): User | undefined => bySourceId.get(sourcedId)?.[0] ?? out.reachedBySourceId.get(sourcedId);
  const unmatchedLeavers: SourceUser[] = [];
  const storedMemberships = new Map<string, Membership[]>();
  for (const m of snapshot.memberships) {
    const list = storedMemberships.get(m.userId);
    if (list) list.push(m);
    else storedMemberships.set(m.userId, [m]);
  }
  const roleColumn = source.format === 'oneroster-1.2' ? 'roles' : 'role';
  const orgColumn = source.format === 'oneroster-1.2' ? 'roles' : 'orgSourcedIds';
  const matched = new Set<string>();
  const seenSourcedIds = new Set<string>();
  const tobedeleted: SourceUser[] = [];
  const named = new Map<string, SourceUser>(); // final (organisation, username) → the person taking it

  for (const u of source.users) {
    if (seenSourcedIds.has(u.sourcedId)) {
      errors.push({ file: u.at.file, line: u.at.line, column: 'sourcedId', value: u.sourcedId, message: 'a second record with this sourcedId' });
      continue;
    }
    seenSourcedIds.add(u.sourcedId);
    if (u.status === 'tobedeleted') {
      tobedeleted.push(u);
      continue;
    }
    const placed: Placed[] = [];
    for (const r of u.roles) {
      const ref = orgs.resolve(r.orgSourcedId);
      if (!ref) {
        errors.push({ file: u.at.file, line: u.at.line, column: orgColumn, value: r.orgSourcedId, message: 'names an organisation that is neither a school of this export nor one Lanyard knows' });
      } else placed.push({ ref, role: r.role, primary: r.primary });
    }
    // A delta row without roles (1.2: no role rows) keeps the stored person's own school, type and memberships.
    const kept = u.roles.length || source.modes.users !== 'delta' ? undefined : storedPerson(u.sourcedId);
    if (!u.roles.length && !kept) {
      errors.push({
        file: u.at.file, line: u.at.line, column: roleColumn,
        message: source.modes.users === 'delta' ? 'a person Lanyard does not have yet needs a role at a school' : 'the person has no role at a school',
      });
    }
    const keptRef = kept && (orgs.covered.find((o) => o.id === kept.organisationId) ?? reachedOrgs.get(kept.organisationId));
    const own = keptRef ? { ref: keptRef, role: '', primary: true } : placed.find((p) => p.primary) ?? placed[0];
    if (!own || placed.length < u.roles.length) continue;
    const type = kept ? u.type ?? kept.type : sourceUserType(u, own.role, context.settings);
    const fieldErrors = userFieldErrors(u, own.role, type, roleColumn);
    errors.push(...fieldErrors);
    if (fieldErrors.length) continue;
    if (kept && reachedOrgs.has(kept.organisationId)) out.touched.add(kept.organisationId);

    const candidates = bySourceId.get(u.sourcedId);
    let current = kept ?? candidates?.find((c) => c.organisationId === own.ref.id) ?? candidates?.[0];
    if (!current) {
      const holder = byUsername.get(orgKey(own.ref.id, u.username));
      if (holder && !holder.sourceId && !matched.has(holder.id)) current = holder;
      else if (holder?.sourceId) {
        errors.push({
          file: u.at.file, line: u.at.line, column: 'username', value: u.username,
          message: `the username belongs to another person in ${own.ref.slug} (sourcedId ${holder.sourceId}`
            + `${holder.rosterHold === 'left' ? ', who left: `lanyard roster purge --all` deletes them' : ''})`,
        });
        continue;
      }
    }
    const id = current?.id ?? context.newId('u');
    if (current) matched.add(current.id);
    const next = desiredUser(u, { id, organisationId: own.ref.id, type: type!, stored: current, settings: context.settings, format: source.format });
    out.idBySourcedId.set(u.sourcedId, id);
    out.usernames.set(id, u.username);
    out.organisationOf.set(id, own.ref.id);
    const key = orgKey(own.ref.id, u.username);
    const other = named.get(key);
    if (other) {
      errors.push({ file: u.at.file, line: u.at.line, column: 'username', value: u.username, message: `the username of another person of the files (line ${other.at.line})` });
      continue;
    }
    named.set(key, u);
    if (!kept) out.administrators.set(id, [...new Set(placed.filter((p) => isAdministrator(u, p.role)).map((p) => p.ref.id))]);

    const fields: FieldChange[] = current ? userChanges(current, next, slugOf) : [];
    const hold = u.enabled ? undefined : 'disabled';
    if ((current?.rosterHold ?? undefined) !== hold) {
      out.holds.push({ userId: id, hold, at: context.now });
      fields.push(...fieldChanges([['hold', current?.rosterHold, hold]]));
    }
    if (!kept) fields.push(...planMemberships(out, id, placed.filter((p) => p.ref.id !== own.ref.id), storedMemberships.get(id) ?? [], slugOf));
    const name = { organisation: own.ref.slug, name: u.username };
    if (!current) {
      plan.added.push(name);
      out.users.push(next);
    } else if (fields.length) {
      plan.changed.push({ ...name, fields });
      if (fields.some((f) => f.field !== 'hold' && f.field !== 'schools')) out.users.push(next);
    } else plan.unchanged += 1;
  }

  const leavers = source.modes.users === 'bulk'
    ? stored.filter((u) => u.sourceId && !matched.has(u.id))
    : tobedeleted.flatMap((u) => {
      const found = bySourceId.get(u.sourcedId) ?? (out.reachedBySourceId.has(u.sourcedId) ? [out.reachedBySourceId.get(u.sourcedId)!] : []);
      if (!found.length) unmatchedLeavers.push(u);
      return found.filter((s) => !matched.has(s.id));
    });
  for (const u of leavers) {
    if (u.rosterHold === 'left') {
      plan.unchanged += 1;
      continue;
    }
    out.leaving.add(u.id);
    if (reachedOrgs.has(u.organisationId)) out.touched.add(u.organisationId);
    out.holds.push({ userId: u.id, hold: 'left', at: context.now });
    plan.leaving.push({ organisation: slugOf(u.organisationId), name: u.username });
    out.memberships.remove.push(...(storedMemberships.get(u.id) ?? []));
  }
  if (unmatchedLeavers.length) {
    const ids = unmatchedLeavers.map((u) => u.sourcedId);
    out.notes.push(`${ids.length} person(s) marked tobedeleted are not in Lanyard, nothing to do: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`);
  }
  errors.push(...usernameClashes(stored.concat(reachedUsers.filter((u) => out.touched.has(u.organisationId))), out, named));
  // A renamed or moved user is written before the users that may take their old name.
  const storedById = new Map(stored.map((u) => [u.id, u]));
  const moves = (u: RosterUser) => {
    const s = storedById.get(u.id);
    return s && (s.username !== u.username || s.organisationId !== u.organisationId) ? 0 : 1;
  };
  out.users.sort((a, b) => moves(a) - moves(b) || byText(slugOf(a.organisationId), slugOf(b.organisationId)) || byText(a.username, b.username));
  out.holds.sort((a, b) => byText(a.userId, b.userId));
  out.memberships.put.sort(byMembership);
  out.memberships.remove.sort(byMembership);
  sortKindPlan(plan);
  return out;
}

/** OneRoster's roles of a school's (or district's) administration: 1.1's `administrator`, and 1.2's. */
const ADMINISTRATOR_ROLES = new Set(['administrator', 'districtAdministrator', 'siteAdministrator', 'systemAdministrator', 'principal']);

/**
 * Whether a role at a school makes the person its school admin: one of the administration's roles. In the
 * one-file CSV only the type `admin` (or `administrator`) says so, not staff who merely teach no class there
 * (whom the reader also places as administrators: read/one-file.ts).
 */
const isAdministrator = (u: SourceUser, role: string): boolean =>
  ADMINISTRATOR_ROLES.has(role) && (u.type === undefined || u.type === 'admin' || u.type === 'administrator');

const byMembership = (a: Membership, b: Membership) => byText(a.userId, b.userId) || byText(a.organisationId, b.organisationId) || byText(a.role, b.role);

/**
 * A person's other schools: one membership per school, their first role there. Stores key memberships by
 * (user, school, role), so the stored and wanted ones are compared as sets of (school, role), whatever order
 * the store reads them in: a membership wanted and not stored is put, one stored and not wanted (another
 * school, or another role at a wanted school) is removed.
 */
function planMemberships(out: UserPlan, userId: string, others: Placed[], stored: Membership[], slugOf: (id: string) => string): FieldChange[] {
  const wanted = new Map<string, Membership>();
  for (const p of others) if (!wanted.has(p.ref.id)) wanted.set(p.ref.id, { userId, organisationId: p.ref.id, role: p.role });
  const mKey = (m: Membership) => `${m.organisationId}\u0000${m.role}`;
  const had = new Map(stored.map((m) => [mKey(m), m]));
  const want = new Map([...wanted.values()].map((m) => [mKey(m), m]));
  for (const [k, m] of want) if (!had.has(k)) out.memberships.put.push(m);
  for (const [k, m] of had) if (!want.has(k)) out.memberships.remove.push(m);
  const shown = (ms: Iterable<Membership>) => [...ms].map((m) => `${slugOf(m.organisationId)} (${m.role})`).sort(byText);
  return fieldChanges([['schools', shown(had.values()), shown(want.values())]]);
}

/**
 * Two users of one organisation with one username after the import (case ignored, as the stores compare
 * them): a person of the files taking the name of a stored user the files do not rename away.
 */
function usernameClashes(stored: User[], out: UserPlan, named: Map<string, SourceUser>): PlanError[] {
  const errors: PlanError[] = [];
  const written = new Set(out.users.map((u) => u.id));
  for (const u of stored) {
    if (written.has(u.id)) continue;
    const taker = named.get(orgKey(u.organisationId, u.username));
    if (taker && out.idBySourcedId.get(taker.sourcedId) !== u.id) {
      errors.push({
        file: taker.at.file, line: taker.at.line, column: 'username', value: taker.username,
        message: `the username belongs to another user in Lanyard${u.sourceId ? ` (sourcedId ${u.sourceId})` : ''}`,
      });
    }
  }
  return errors;
}
