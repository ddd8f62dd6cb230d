import type { SourceRole, SourceUser } from '../source.js';
import type { KindSpec } from './kind-reader.js';
import { termOf } from './kind-reader.js';
import { userRoles, type OneRosterVersion } from './oneroster-vocabulary.js';
import type { Row } from './csv-table.js';
import type { ReadContext, RecordBase } from './read-context.js';
import { NAME_MAX, USERNAME, USERNAME_RULE } from './lanyard-fields.js';
import { parseBoolean, parseList } from './values.js';

/**
 * users.csv. Both versions: username, givenName, familyName, middleName, enabledUser, identifier, email,
 * userIds, grades (sms, phone, agentSourcedIds are not read, nor ever `password`). OneRoster 1.1 gives the
 * person's one `role` at each of `orgSourcedIds` (the first is their own school); 1.2 gives roles in
 * roles.csv (read after this file, see roles.ts) and the own school as `primaryOrgSourcedId`.
 */

/** `userIds`: `{type:id}` pairs, comma separated ({LDAP:jsmith},{SIS:1234}). */
const USER_ID = /\{\s*([^:{}]+?)\s*:\s*([^{}]*?)\s*\}/g;

/** Other columns a school may fill `roster_id` from: identifier, userMasterIdentifier (1.2), `userIds.TYPE`. */
function extraOf(row: Row): Record<string, string> {
  const extra: Record<string, string> = {};
  const identifier = row.get('identifier');
  if (identifier !== undefined) extra.identifier = identifier;
  const master = row.get('userMasterIdentifier');
  if (master !== undefined) extra.userMasterIdentifier = master;
  const ids = row.get('userIds');
  if (ids !== undefined) {
    let found = false;
    for (const [, type, id] of ids.matchAll(USER_ID)) {
      found = true;
      if (type && id) extra[`userIds.${type}`] = id;
    }
    if (!found) row.problem('userIds', 'not a list of {type:id} pairs (e.g. {LDAP:jsmith},{SIS:1234})', ids);
  }
  return extra;
}

/** `enabledUser`: true or false (any case); empty is true. */
function enabledOf(row: Row): boolean {
  const text = row.get('enabledUser');
  if (text === undefined) return true;
  const enabled = parseBoolean(text);
  if (enabled === undefined) row.problem('enabledUser', 'must be true or false', text);
  return enabled ?? true;
}

/** The username and names as Lanyard takes them (lanyard-fields.ts). */
function checkPerson(row: Row): void {
  const username = row.get('username');
  if (username !== undefined && !USERNAME.test(username)) row.problem('username', `not a username Lanyard takes (${USERNAME_RULE})`, username);
  for (const column of ['givenName', 'familyName']) {
    if ((row.get(column)?.length ?? 0) > NAME_MAX) row.problem(column, `longer than ${NAME_MAX} characters`);
  }
}

/** 1.1: the one role at each of orgSourcedIds, all primary there, in the file's order (own school first). */
function rolesOf11(row: Row, ctx: ReadContext): SourceRole[] {
  const role = termOf(row, 'role', userRoles('1.1'), 'a OneRoster 1.1 role');
  if (role === undefined) return [];
  return parseList(row.get('orgSourcedIds')).map((org) => ({ orgSourcedId: ctx.refer(row, 'orgs', 'orgSourcedIds', org), role, primary: true }));
}

/**
 * The users.csv reader of a version. For 1.2, `primaryOrgs` receives each user's primaryOrgSourcedId (when
 * given), which orders the roles read from roles.csv afterwards.
 */
export function usersSpec(version: OneRosterVersion, primaryOrgs: Map<string, string>): KindSpec<SourceUser> {
  return {
    required: version === '1.1' ? ['username', 'givenName', 'familyName', 'role', 'orgSourcedIds'] : ['username', 'givenName', 'familyName'],
    build(row: Row, base: RecordBase, ctx: ReadContext): SourceUser {
      checkPerson(row);
      if (version === '1.2') {
        const primary = row.get('primaryOrgSourcedId');
        if (primary !== undefined) primaryOrgs.set(base.sourcedId, ctx.refer(row, 'orgs', 'primaryOrgSourcedId', primary));
      }
      return {
        sourcedId: base.sourcedId, status: base.status, modifiedAt: base.modifiedAt, at: base.at,
        username: row.get('username') ?? '',
        givenName: ctx.intern.of(row.get('givenName') ?? ''),
        familyName: ctx.intern.of(row.get('familyName') ?? ''),
        middleName: row.get('middleName'),
        email: row.get('email'),
        identifier: row.get('identifier'),
        enabled: enabledOf(row),
        roles: version === '1.1' ? rolesOf11(row, ctx) : [],
        grades: parseList(row.get('grades'), /,/, ctx.keep),
        extra: extraOf(row),
        type: undefined,
      };
    },
  };
}
