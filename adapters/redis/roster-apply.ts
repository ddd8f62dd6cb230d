import { LanyardError } from '../../src/errors.js';
import { type RosterChanges, sessionsEndNow } from '../store.js';
import { asciiLower } from '../store/collation.js';
import type { KeyLayout } from './key-layout.js';
import {
  chunks, enrolmentJson, ROSTER_USER_FIELDS, SET_ROSTER_HOLD, type StoredMemberships, WRITE_ROSTER_USERS,
} from './roster-records.js';
import { indexEntry, type StoredRoster } from './roster-stored.js';

/** Users per script, and field-value pairs per HSET, inside the MULTI: bounded steps for Redis. */
const USERS_PER_SCRIPT = 500;
const PAIRS_PER_COMMAND = 1000;

const conflict = (message: string) => new LanyardError('conflict', `${message}; nothing was changed`, 409, true);

/** One unique index entry a record takes: the index's key, the field, the record's id. */
interface Claim { key: string; field: string; id: string }

/**
 * Whether the claims clash, as the SQLite store's unique indexes would see them: each entry must be free,
 * the record's own, held by a record that lets go of it in this change, or stale (its holder no longer has
 * that value). Two claims on one entry clash. `holds(id, claim)`: whether `id` still holds it as stored.
 */
function checkClaims(claims: Claim[], released: Set<string>, s: StoredRoster, holds: (id: string, c: Claim) => boolean, what: string) {
  const taken = new Map<string, string>();
  for (const claim of claims) {
    const entry = indexEntry(claim.key, claim.field);
    const other = taken.get(entry);
    if (other !== undefined && other !== claim.id) throw conflict(`${what} ${claim.field} is given to both ${other} and ${claim.id}`);
    taken.set(entry, claim.id);
    const holder = s.index.get(entry);
    if (holder !== undefined && holder !== claim.id && !released.has(`${entry}\n${holder}`) && holds(holder, claim)) {
      throw conflict(`${what} ${claim.field} belongs to ${holder}, not ${claim.id}`);
    }
  }
}

/** One command: its name and arguments. */
export type Command = [name: string, ...args: (string | number)[]];

/** HSET key f1 v1 f2 v2…, in bounded commands. */
function* hsetPairs(key: string, pairs: [string, string][]): Generator<Command> {
  for (const part of chunks(pairs, PAIRS_PER_COMMAND)) yield ['hset', key, ...part.flat()];
}

function grouped<T>(list: T[], keyOf: (v: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const v of list) {
    const key = keyOf(v);
    const group = out.get(key);
    if (group) group.push(v);
    else out.set(key, [v]);
  }
  return out;
}

/** What checkRoster found, for rosterWrites. */
export interface RosterPlan {
  /** Users whose new hold ends their sessions: their protocol records go after EXEC (other hash slots). */
  held: string[];
  /** Unique index entries users let go of (a new school, username or source id). */
  userReleases: Claim[];
}

const nameOf = (keys: KeyLayout, u: { organisationId: string; username: string }) =>
  ({ key: keys.directory.usernames(u.organisationId), field: asciiLower(u.username) });
const sourceOf = (keys: KeyLayout, u: { organisationId: string; sourceId?: string | undefined }) =>
  (u.sourceId === undefined ? undefined : { key: keys.roster.sourceIds(u.organisationId), field: u.sourceId });
const classOf = (keys: KeyLayout, k: { organisationId: string; sourcedId: string }) =>
  ({ key: keys.roster.classSourcedIds(k.organisationId), field: k.sourcedId });

/**
 * Checks the change against what is stored: the refusals SQLite's constraints make (a 409), before anything
 * is sent.
 */
export function checkRoster(keys: KeyLayout, c: RosterChanges, s: StoredRoster): RosterPlan {
  const d = keys.directory;
  const r = keys.roster;
  for (const u of c.users) {
    if (s.retired.has(u.id)) throw conflict(`user id ${u.id} belonged to a deleted user and is never reused`);
  }
  const orgExists = new Set([...s.orgs.keys(), ...c.organisations.map((o) => o.id)]);
  const needOrg = (orgId: string, what: string) => { if (!orgExists.has(orgId)) throw conflict(`${what}: organisation ${orgId} does not exist`); };
  for (const u of c.users) needOrg(u.organisationId, `user ${u.id}`);
  for (const k of c.classes.put) needOrg(k.organisationId, `class ${k.id}`);
  for (const x of c.academicSessions.put) needOrg(x.organisationId, `academic session ${x.id}`);
  for (const x of c.memberships.put) needOrg(x.organisationId, `membership of ${x.userId}`);
  for (const id of s.missingUsers) throw conflict(`user ${id} does not exist`);

  // Organisations: slugs unique (any case).
  const orgSlugClaims = c.organisations.map((o) => ({ key: d.orgSlugs, field: asciiLower(o.slug), id: o.id }));
  const orgReleases = new Set(c.organisations.flatMap((o) => {
    const old = s.orgs.get(o.id);
    return old && asciiLower(old.slug) !== asciiLower(o.slug) ? [`${indexEntry(d.orgSlugs, asciiLower(old.slug))}\n${o.id}`] : [];
  }));
  checkClaims(orgSlugClaims, orgReleases, s, () => true, 'the slug');

  // Users: (school, username) and (school, source id) unique.
  const userReleases: Claim[] = [];
  for (const u of c.users) {
    const old = s.users.get(u.id);
    if (!old) continue;
    const [oldName, newName] = [nameOf(keys, old), nameOf(keys, u)];
    if (oldName.key !== newName.key || oldName.field !== newName.field) userReleases.push({ ...oldName, id: u.id });
    const [oldSource, newSource] = [sourceOf(keys, old), sourceOf(keys, u)];
    if (oldSource && (oldSource.key !== newSource?.key || oldSource.field !== newSource.field)) userReleases.push({ ...oldSource, id: u.id });
  }
  const releasedByUsers = new Set(userReleases.map((x) => `${indexEntry(x.key, x.field)}\n${x.id}`));
  const stillHolds = (id: string, claim: Claim) => {
    const holder = s.users.get(id) ?? s.holders.users.get(id);
    if (!holder) return false;
    const held = claim.key.startsWith(r.sourceIds('')) ? sourceOf(keys, holder) : nameOf(keys, holder);
    return held?.key === claim.key && held.field === claim.field;
  };
  checkClaims(c.users.map((u) => ({ ...nameOf(keys, u), id: u.id })), releasedByUsers, s, stillHolds, 'the username');
  checkClaims(c.users.flatMap((u) => { const x = sourceOf(keys, u); return x ? [{ ...x, id: u.id }] : []; }), releasedByUsers, s, stillHolds, 'the source id');

  // Classes and sessions: (school, sourced id) unique; removals come before puts.
  const removedClasses = new Set(c.classes.remove);
  const putClasses = new Map(c.classes.put.map((k) => [k.id, k]));
  const classReleases = new Set([...s.classes.values()].flatMap((k) => {
    const put = putClasses.get(k.id);
    const moved = put && (put.organisationId !== k.organisationId || put.sourcedId !== k.sourcedId);
    return removedClasses.has(k.id) || moved ? [`${indexEntry(classOf(keys, k).key, classOf(keys, k).field)}\n${k.id}`] : [];
  }));
  checkClaims(c.classes.put.map((k) => ({ ...classOf(keys, k), id: k.id })), classReleases, s, (id, claim) => {
    const holder = s.classes.get(id) ?? s.holders.classes.get(id);
    return holder !== undefined && classOf(keys, holder).key === claim.key && classOf(keys, holder).field === claim.field;
  }, 'the class sourced id');
  const sessionsAfter = new Map(s.sessions);
  for (const id of c.academicSessions.remove) sessionsAfter.delete(id);
  for (const x of c.academicSessions.put) sessionsAfter.set(x.id, x);
  const seen = new Map<string, string>();
  for (const x of sessionsAfter.values()) {
    const entry = `${x.organisationId}\n${x.sourcedId}`;
    if (seen.has(entry)) throw conflict(`the academic session sourced id ${x.sourcedId} belongs to both ${seen.get(entry)} and ${x.id}`);
    seen.set(entry, x.id);
  }
  for (const e of c.enrolments.put) {
    if (!putClasses.has(e.classId) && (s.missingClasses.has(e.classId) || removedClasses.has(e.classId))) {
      throw conflict(`class ${e.classId} does not exist`);
    }
  }
  return { held: c.holds.filter((h) => h.hold !== undefined).map((h) => h.userId), userReleases };
}

/**
 * Every write of the change, in the SQLite store's order, for one MULTI: commands of bounded size, made as
 * they are sent, so that a district's change never sits in memory as commands whole.
 */
export function* rosterWrites(keys: KeyLayout, c: RosterChanges, s: StoredRoster, plan: RosterPlan): Generator<Command> {
  const d = keys.directory;
  const r = keys.roster;
  const removedClasses = new Set(c.classes.remove);
  for (const o of c.organisations) {
    const old = s.orgs.get(o.id);
    if (old && asciiLower(old.slug) !== asciiLower(o.slug) && s.index.get(indexEntry(d.orgSlugs, asciiLower(old.slug))) === o.id) {
      yield ['hdel', d.orgSlugs, asciiLower(old.slug)];
    }
    yield ['hset', d.orgs, o.id, JSON.stringify({ id: o.id, slug: o.slug, name: o.name, sourceId: o.sourceId })];
    yield ['hset', d.orgSlugs, asciiLower(o.slug), o.id];
  }
  for (const x of plan.userReleases) if (s.index.get(indexEntry(x.key, x.field)) === x.id) yield ['hdel', x.key, x.field];
  for (const part of chunks(c.users, USERS_PER_SCRIPT)) {
    const records = part.map((u) => Object.fromEntries([['id', u.id], ...ROSTER_USER_FIELDS.map((f) => [f, u[f]])]));
    yield ['eval', WRITE_ROSTER_USERS, 1, d.users, JSON.stringify(records)];
  }
  for (const [key, us] of grouped(c.users, (u) => nameOf(keys, u).key)) yield* hsetPairs(key, us.map((u) => [nameOf(keys, u).field, u.id]));
  for (const [key, us] of grouped(c.users.filter((u) => u.sourceId !== undefined), (u) => sourceOf(keys, u)!.key)) {
    yield* hsetPairs(key, us.map((u) => [u.sourceId!, u.id]));
  }

  const now = sessionsEndNow();
  for (const h of c.holds) {
    yield ['eval', SET_ROSTER_HOLD, 4, d.users, d.badges, d.badgesOfUser(h.userId), r.leavers, h.userId, h.hold ?? '', h.at, now];
  }

  const memberships = new Map<string, StoredMemberships>();
  const listOf = (userId: string) => memberships.get(userId) ?? memberships.set(userId, [...(s.memberships.get(userId) ?? [])]).get(userId)!;
  for (const x of c.memberships.remove) {
    memberships.set(x.userId, listOf(x.userId).filter((y) => y.organisationId !== x.organisationId || y.role !== x.role));
  }
  for (const x of c.memberships.put) {
    const list = listOf(x.userId);
    if (!list.some((y) => y.organisationId === x.organisationId && y.role === x.role)) list.push({ organisationId: x.organisationId, role: x.role });
  }
  for (const [userId, list] of memberships) {
    if (list.length) yield ['hset', r.memberships, userId, JSON.stringify(list)];
    else yield ['hdel', r.memberships, userId];
    const before = new Set((s.memberships.get(userId) ?? []).map((y) => y.organisationId));
    const after = new Set(list.map((y) => y.organisationId));
    for (const orgId of before) if (!after.has(orgId)) yield ['srem', r.membersIn(orgId), userId];
    for (const orgId of after) yield ['sadd', r.membersIn(orgId), userId];
  }

  for (const id of c.academicSessions.remove) {
    const old = s.sessions.get(id);
    yield ['hdel', r.sessions, id];
    if (old) yield ['srem', r.sessionsOf(old.organisationId), id];
  }
  for (const x of c.academicSessions.put) {
    const old = c.academicSessions.remove.includes(x.id) ? undefined : s.sessions.get(x.id);
    if (old && old.organisationId !== x.organisationId) yield ['srem', r.sessionsOf(old.organisationId), x.id];
    yield ['hset', r.sessions, x.id, JSON.stringify(x)];
    yield ['sadd', r.sessionsOf(x.organisationId), x.id];
  }

  for (const e of c.enrolments.remove) {
    yield ['hdel', r.enrolments(e.classId), e.userId];
    yield ['srem', r.enrolmentsOfUser(e.userId), e.classId];
  }
  for (const id of c.classes.remove) {
    const old = s.classes.get(id);
    if (!old) continue;
    yield ['hdel', r.classes, id];
    yield ['srem', r.classesOf(old.organisationId), id];
    if (s.index.get(indexEntry(classOf(keys, old).key, classOf(keys, old).field)) === id) yield ['hdel', classOf(keys, old).key, classOf(keys, old).field];
    yield ['del', r.enrolments(id)];
    for (const userId of s.classMembers.get(id) ?? []) yield ['srem', r.enrolmentsOfUser(userId), id];
  }
  for (const k of c.classes.put) {
    const old = removedClasses.has(k.id) ? undefined : s.classes.get(k.id);
    if (old && old.organisationId !== k.organisationId) yield ['srem', r.classesOf(old.organisationId), k.id];
    if (old && (old.organisationId !== k.organisationId || old.sourcedId !== k.sourcedId)
      && s.index.get(indexEntry(classOf(keys, old).key, classOf(keys, old).field)) === k.id) yield ['hdel', classOf(keys, old).key, classOf(keys, old).field];
    yield ['hset', r.classes, k.id, JSON.stringify(k)];
    yield ['sadd', r.classesOf(k.organisationId), k.id];
    yield ['hset', classOf(keys, k).key, classOf(keys, k).field, k.id];
  }
  for (const [classId, es] of grouped(c.enrolments.put, (e) => e.classId)) {
    yield* hsetPairs(r.enrolments(classId), es.map((e) => [e.userId, enrolmentJson(e)]));
  }
  for (const [userId, es] of grouped(c.enrolments.put, (e) => e.userId)) yield ['sadd', r.enrolmentsOfUser(userId), ...es.map((e) => e.classId)];

  yield ['hset', r.imports, c.run.id, JSON.stringify(c.run)];
  yield ['zadd', r.importsByTime, Date.parse(c.run.at), c.run.id];
}

/** The keys whose change by someone else (a deletion, a new user or school) makes applyRoster read again. */
export function watchedKeys(keys: KeyLayout, c: RosterChanges, organisationIds: Iterable<string>): string[] {
  const d = keys.directory;
  const orgs = new Set([...organisationIds, ...c.users.map((u) => u.organisationId)]);
  return [d.retiredUsers, d.orgs, d.orgSlugs, ...[...orgs].flatMap((o) => [d.usernames(o), keys.roster.sourceIds(o)])];
}
