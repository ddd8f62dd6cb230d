import type { Redis } from 'ioredis';
import type { AcademicSession, RosterChanges, RosterClass, User } from '../store.js';
import { asciiLower } from '../store/collation.js';
import type { KeyLayout } from './key-layout.js';
import { chunks, MISSING_FIELDS, type StoredMemberships, toAcademicSession, toClass } from './roster-records.js';
import { execPipeline } from './scripts.js';

/** Fields asked for by one HMGET, ids checked by one script: bounded, so Redis is never blocked for long. */
const READ_CHUNK = 1000;

/** What the unique indexes know of a stored user: its school, username and source id. */
export type UserKeys = Pick<User, 'organisationId' | 'username' | 'sourceId'>;

const toUserKeys = (json: string): UserKeys => {
  const { organisationId, username, sourceId } = JSON.parse(json) as UserKeys;
  return { organisationId, username, sourceId };
};

/** What applyRoster needs to know of the store before it writes (read after WATCH, on its own connection). */
export interface StoredRoster {
  users: Map<string, UserKeys>;
  retired: Set<string>;
  /** Organisations that exist (stored, by id), with their slugs. */
  orgs: Map<string, { slug: string }>;
  /** Index entries read: `${key}\n${field}` → id (absent: free). */
  index: Map<string, string>;
  /** The users and classes those entries lead to, besides `users` and `classes` (an entry may be stale: its holder is checked). */
  holders: { users: Map<string, UserKeys>; classes: Map<string, RosterClass> };
  classes: Map<string, RosterClass>;
  /** Every stored session of the organisations the change puts sessions in, and the ones it names. */
  sessions: Map<string, AcademicSession>;
  /** The users of removed classes' enrolments, by class. */
  classMembers: Map<string, string[]>;
  memberships: Map<string, StoredMemberships>;
  /** Users and classes the change refers to that are neither stored nor in it. */
  missingUsers: Set<string>;
  missingClasses: Set<string>;
}

export const indexEntry = (key: string, field: string): string => `${key}\n${field}`;

async function hmget(conn: Redis, key: string, fields: string[]): Promise<(string | null)[]> {
  if (!fields.length) return [];
  const read = conn.pipeline();
  for (const part of chunks(fields, READ_CHUNK)) read.hmget(key, ...part);
  return (await execPipeline(read)).flat() as (string | null)[];
}

/** The records of `ids` that exist, parsed a few thousand at a time (never a district's raw text at once). */
async function hashValues<T>(conn: Redis, key: string, ids: string[], parse: (json: string) => T): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  for (const group of chunks(ids, READ_CHUNK * 5)) {
    (await hmget(conn, key, group)).forEach((json, i) => { if (json) out.set(group[i]!, parse(json)); });
  }
  return out;
}

async function missing(conn: Redis, key: string, ids: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of chunks(ids, READ_CHUNK)) {
    for (const id of (await conn.eval(MISSING_FIELDS, 1, key, ...part)) as string[]) out.add(id);
  }
  return out;
}

/** The users the change writes, read before anything is watched: only imports move a user to another school. */
export const storedUsers = async (conn: Redis, keys: KeyLayout, c: RosterChanges): Promise<Map<string, UserKeys>> =>
  hashValues(conn, keys.directory.users, [...new Set(c.users.map((u) => u.id))], toUserKeys);

/**
 * Reads what the change touches or refers to, once WATCH covers deletions: `before`, the users read before it,
 * less any deleted since (their ids are retired now).
 */
export async function readStored(conn: Redis, keys: KeyLayout, c: RosterChanges, before: Map<string, UserKeys>): Promise<StoredRoster> {
  const d = keys.directory;
  const r = keys.roster;
  const gone = await missing(conn, d.users, [...before.keys()]);
  const users = new Map([...before].filter(([id]) => !gone.has(id)));
  const newIds = c.users.map((u) => u.id).filter((id) => !users.has(id));
  const retired = new Set((await hmget(conn, d.retiredUsers, newIds)).flatMap((v, i) => (v === null ? [] : [newIds[i]!])));

  const orgIds = [...new Set([
    ...c.organisations.map((o) => o.id), ...c.users.map((u) => u.organisationId), ...c.memberships.put.map((m) => m.organisationId),
    ...c.classes.put.map((k) => k.organisationId), ...c.academicSessions.put.map((s) => s.organisationId),
  ])];
  const orgs = await hashValues(conn, d.orgs, orgIds, (json) => ({ slug: (JSON.parse(json) as { slug: string }).slug }));

  const classIds = [...new Set([...c.classes.put.map((k) => k.id), ...c.classes.remove])];
  const classes = await hashValues(conn, r.classes, classIds, toClass);

  // The unique indexes' entries the change may take or let go of.
  const wanted = new Map<string, Set<string>>();
  const want = (key: string, field: string | undefined) => {
    if (field === undefined) return;
    if (!wanted.has(key)) wanted.set(key, new Set());
    wanted.get(key)!.add(field);
  };
  for (const o of c.organisations) want(d.orgSlugs, asciiLower(o.slug));
  for (const o of orgs.values()) want(d.orgSlugs, asciiLower(o.slug));
  for (const u of [...c.users, ...users.values()]) {
    want(d.usernames(u.organisationId), asciiLower(u.username));
    want(r.sourceIds(u.organisationId), u.sourceId);
  }
  for (const k of [...c.classes.put, ...classes.values()]) want(r.classSourcedIds(k.organisationId), k.sourcedId);
  const index = new Map<string, string>();
  for (const [key, fieldSet] of wanted) {
    const fields = [...fieldSet];
    (await hmget(conn, key, fields)).forEach((id, i) => { if (id !== null) index.set(indexEntry(key, fields[i]!), id); });
  }

  const holderIds = (pick: (key: string) => boolean, known: Map<string, unknown>) =>
    [...new Set([...index].filter(([entry, id]) => pick(entry) && !known.has(id)).map(([, id]) => id))];
  const isClassEntry = (entry: string) => entry.startsWith(r.classSourcedIds(''));
  const holders = {
    users: await hashValues(conn, d.users, holderIds((e) => !isClassEntry(e) && !e.startsWith(d.orgSlugs), users), toUserKeys),
    classes: await hashValues(conn, r.classes, holderIds(isClassEntry, classes), toClass),
  };

  const sessionOrgs = [...new Set(c.academicSessions.put.map((s) => s.organisationId))];
  const sessionIds = new Set([...c.academicSessions.put.map((s) => s.id), ...c.academicSessions.remove]);
  for (const orgId of sessionOrgs) for (const id of await conn.smembers(r.sessionsOf(orgId))) sessionIds.add(id);
  const sessions = await hashValues(conn, r.sessions, [...sessionIds], toAcademicSession);

  const classMembers = new Map<string, string[]>();
  for (const id of c.classes.remove) classMembers.set(id, await conn.hkeys(r.enrolments(id)));

  const memberIds = [...new Set([...c.memberships.put, ...c.memberships.remove].map((m) => m.userId))];
  const memberships = await hashValues(conn, r.memberships, memberIds, (json) => JSON.parse(json) as StoredMemberships);

  const inChange = new Set(c.users.map((u) => u.id));
  const referred = [...new Set([...c.enrolments.put.map((e) => e.userId), ...c.memberships.put.map((m) => m.userId)])]
    .filter((id) => !inChange.has(id));
  const putClasses = new Set(c.classes.put.map((k) => k.id));
  const referredClasses = [...new Set(c.enrolments.put.map((e) => e.classId))].filter((id) => !putClasses.has(id));
  return {
    users, retired, orgs, index, holders, classes, sessions, classMembers, memberships,
    missingUsers: await missing(conn, d.users, referred),
    missingClasses: await missing(conn, r.classes, referredClasses),
  };
}
