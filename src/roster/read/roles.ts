import type { SourceMode, SourceUser } from '../source.js';
import type { Row, TableReader } from './csv-table.js';
import { termOf } from './kind-reader.js';
import { ROLE_TYPES, userRoles } from './oneroster-vocabulary.js';
import type { Problems } from './problems.js';
import type { ReadContext } from './read-context.js';

/**
 * OneRoster 1.2's roles.csv: a person's roles, one row each (userSourcedId, roleType primary or secondary,
 * role, orgSourcedId; beginDate, endDate and userProfileSourcedId are not read), added to the users read
 * from users.csv. A row for a user who is not in users.csv is an error when users.csv is bulk; in a delta
 * export it is counted in `unmatched` and not applied (a role changes with its user's row). A delta's
 * `tobedeleted` role is counted in `deleted` and not applied either: the user's row gives the roles left.
 */
export interface RolesRead {
  unmatched: number;
  deleted: number;
}

const REQUIRED = ['userSourcedId', 'roleType', 'role', 'orgSourcedId'];

export function rolesReader(mode: 'bulk' | 'delta', usersMode: SourceMode, ctx: ReadContext, counts: RolesRead): TableReader {
  const users: ReadonlyMap<string, SourceUser> = ctx.known.users;
  const seen = new Map<string, number>();
  return {
    header(names: string[], problems: Problems, file: string): boolean {
      const needed = mode === 'delta' ? [...REQUIRED, 'status'] : REQUIRED;
      const missing = needed.filter((c) => !names.includes(c));
      for (const column of missing) problems.add(file, 1, column, `the header has no column ${column} (${file} needs ${needed.join(', ')})`);
      return missing.length === 0;
    },
    row(row: Row): void {
      const id = row.get('sourcedId');
      if (id !== undefined) {
        const line = seen.get(id);
        if (line !== undefined) return row.problem('sourcedId', `the same sourcedId is on line ${line}`, id);
        seen.set(id, row.line);
      }
      const status = row.get('status')?.toLowerCase();
      if (mode === 'delta' && status === 'tobedeleted') {
        counts.deleted++;
        return;
      }
      if (status !== undefined && status !== 'active') return row.problem('status', mode === 'delta' ? 'must be active or tobedeleted' : 'must be active (or empty) in a bulk file', row.get('status'));
      ctx.modifiedAt(row);
      let missing = false;
      for (const column of REQUIRED) {
        if (row.get(column) === undefined) {
          row.problem(column, 'empty: this column is required');
          missing = true;
        }
      }
      if (missing) return;
      const userId = row.get('userSourcedId')!;
      const user = users.get(userId);
      const orgSourcedId = ctx.refer(row, 'orgs', 'orgSourcedId', row.get('orgSourcedId')!);
      const roleType = termOf(row, 'roleType', ROLE_TYPES, 'a role type');
      const role = termOf(row, 'role', userRoles('1.2'), 'a OneRoster 1.2 role')!;
      if (!user) {
        if (usersMode === 'bulk' && !ctx.unread.has('users')) row.problem('userSourcedId', 'no user with this sourcedId in users.csv', userId);
        else counts.unmatched++;
        return;
      }
      user.roles.push({ orgSourcedId, role, primary: roleType === 'primary' });
    },
  };
}

/**
 * Puts a 1.2 user's own school first: the roles at `primaryOrgSourcedId` (primary before secondary), then
 * the other primary roles, then the secondary ones, each in the file's order.
 */
export function orderRoles(user: SourceUser, primaryOrg: string | undefined): void {
  if (user.roles.length < 2) return;
  const rank = (r: SourceUser['roles'][number]) => (r.orgSourcedId === primaryOrg ? 0 : 2) + (r.primary ? 0 : 1);
  user.roles = user.roles.map((r, i) => ({ r, i })).sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i).map(({ r }) => r);
}
