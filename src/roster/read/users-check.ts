import type { SourceMode, SourceUser } from '../source.js';
import type { Problems } from './problems.js';
import { orderRoles } from './roles.js';

/**
 * What is checked of users once their roles are all known (1.2 reads them from roles.csv after users.csv):
 * the own school first; an active 1.2 user has a role (unless roles.csv is a delta or absent, when none
 * read means unchanged: `roles` stays empty and the planner keeps the stored ones); a 1.2
 * `primaryOrgSourcedId` has a role there; a username is used once in a school.
 */
export function checkUsers(
  users: readonly SourceUser[], o: { version: '1.1' | '1.2'; rolesMode: SourceMode; primaryOrgs: ReadonlyMap<string, string>; problems: Problems },
): void {
  const usernames = new Map<string, number>();
  for (const user of users) {
    const { file, line } = user.at;
    if (o.version === '1.2') {
      const primaryOrg = o.primaryOrgs.get(user.sourcedId);
      orderRoles(user, primaryOrg);
      if (primaryOrg !== undefined && user.roles.length > 0 && user.roles[0]!.orgSourcedId !== primaryOrg) {
        o.problems.add(file, line, 'primaryOrgSourcedId', 'the user has no role at this org in roles.csv', primaryOrg);
      }
    }
    if (user.status !== 'active') continue;
    if (user.roles.length === 0 && o.version === '1.2' && o.rolesMode === 'bulk') o.problems.add(file, line, '', 'the user has no role in roles.csv');
    if (user.username === '') continue;
    const school = user.roles[0]?.orgSourcedId ?? '';
    const key = `${school}\n${user.username}`;
    const other = usernames.get(key);
    if (other !== undefined) o.problems.add(file, line, 'username', `line ${other} has the same username${school ? ` at ${school}` : ''}`, user.username);
    else usernames.set(key, line);
  }
}
