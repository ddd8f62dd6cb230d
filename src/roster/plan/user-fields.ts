import type { RosterUser, User } from '../../../adapters/store.js';
import type { RosterSettings } from '../../config/roster.js';
import type { RosterSource, SourceUser } from '../source.js';
import { type FieldValue, fieldChanges } from './fields.js';
import type { FieldChange, PlanError } from './plan-types.js';

/**
 * A user as the files describe them: the fields a users file carries (docs/rostering.md → Importing). The
 * file is authoritative for those; what it does not carry (credentials, badges, the matched Google and
 * Microsoft accounts, a suspension) is not in a RosterUser at all, so the store leaves it as it is. An empty email
 * or roster id keeps the stored one: an export that leaves a column empty does not erase what Lanyard has.
 */

/** The configuration file's user names and types (src/config/schema.ts `user`). */
const USERNAME = /^[A-Za-z0-9._@-]{1,64}$/;
const USER_TYPE = /^[a-z_]{1,32}$/;

/**
 * The person's roster id: in a one-file CSV only its `roster_id` column (it is the claim itself; the file's
 * ids are usernames, never roster ids), else the field `roster_id_from` names; undefined when they have none
 * (the stored one is kept).
 */
export function sourceRosterId(u: SourceUser, settings: RosterSettings, format: RosterSource['format']): string | undefined {
  if (format === 'one-file') return u.extra.roster_id || undefined;
  switch (settings.rosterIdFrom) {
    case 'none': return undefined;
    case 'sourcedId': return u.sourcedId;
    case 'identifier': return u.identifier;
    default: return u.extra[settings.rosterIdFrom] || undefined;
  }
}

/** The user's type: given directly (one-file CSV), else their role at their own school through `roster.types`. */
export function sourceUserType(u: SourceUser, role: string, settings: RosterSettings): string | undefined {
  return u.type ?? settings.types[role];
}

/** What is wrong with a person's username, names or type, as errors on their line. */
export function userFieldErrors(u: SourceUser, role: string, type: string | undefined, column: string): PlanError[] {
  const at = { file: u.at.file, line: u.at.line };
  const errors: PlanError[] = [];
  if (!USERNAME.test(u.username)) {
    errors.push({ ...at, column: 'username', value: u.username, message: 'a username is 1–64 of A-Z a-z 0-9 . _ @ -' });
  }
  if (!u.givenName) errors.push({ ...at, column: 'givenName', message: 'the given name is empty' });
  if (!u.familyName) errors.push({ ...at, column: 'familyName', message: 'the family name is empty' });
  if (type === undefined) {
    errors.push({ ...at, column, value: role, message: `the role "${role}" has no user type: add it to "types" in the configuration file's "roster" section` });
  } else if (!USER_TYPE.test(type)) {
    errors.push({ ...at, column: u.type !== undefined ? 'type' : column, value: type, message: 'a user type is 1–32 of a-z and _' });
  }
  return errors;
}

/** The RosterUser to write for a person: the file's fields over the stored user's. */
export function desiredUser(
  u: SourceUser, o: { id: string; organisationId: string; type: string; stored?: User | undefined; settings: RosterSettings; format: RosterSource['format'] },
): RosterUser {
  return {
    id: o.id,
    organisationId: o.organisationId,
    username: u.username,
    givenName: u.givenName,
    familyName: u.familyName,
    type: o.type,
    email: u.email || o.stored?.email,
    rosterId: sourceRosterId(u, o.settings, o.format) ?? o.stored?.rosterId,
    sourceId: u.sourcedId,
  };
}

/** What changes from the stored user (their own school named by slug). */
export function userChanges(stored: User, next: RosterUser, slugOf: (organisationId: string) => string): FieldChange[] {
  const fields: [string, FieldValue, FieldValue][] = [
    ['username', stored.username, next.username],
    ['given_name', stored.givenName, next.givenName],
    ['family_name', stored.familyName, next.familyName],
    ['type', stored.type, next.type],
    ['email', stored.email, next.email],
    ['roster_id', stored.rosterId, next.rosterId],
    ['source_id', stored.sourceId, next.sourceId],
    ['organisation', slugOf(stored.organisationId), slugOf(next.organisationId)],
  ];
  return fieldChanges(fields);
}
