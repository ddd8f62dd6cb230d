import type { RosterSnapshot } from '../../../adapters/store.js';
import type { RosterSource } from '../source.js';
import { planAcademicSessions } from './academic-sessions.js';
import { planClasses } from './classes.js';
import { planEnrolments } from './enrolments.js';
import { byText } from './fields.js';
import { massRemovalErrors } from './mass-removal.js';
import { mapOrganisations, type OrgMapping } from './organisations.js';
import type { Plan, PlanContext, PlanError } from './plan-types.js';
import { planUsers } from './users.js';

/**
 * Compares what the files say with what the store holds and says what an import would do
 * (docs/rostering.md → Importing): per kind the records added, changed, unchanged and leaving, every
 * error, and the changes to write. Pure: the same files, stored roster and context give the same plan
 * (lists sorted; only new ids come from context.newId). Each kind is a pass over maps keyed by id, so a
 * district of 50,000 people and 200,000 enrolments plans in well under a second or two.
 * `snapshot` is the stored roster of the organisations the files cover (mapOrganisations(...).covered); a caller
 * that mapped them to choose that snapshot gives the mapping as `orgs`, so that it is not made twice.
 */
export function planRoster(
  source: RosterSource, snapshot: RosterSnapshot, context: PlanContext, orgs: OrgMapping = mapOrganisations(source, context),
): Plan {
  const sessions = planAcademicSessions(source, snapshot, orgs.covered, context);
  const classes = planClasses(source, snapshot, orgs, sessions, context);
  const users = planUsers(source, snapshot, orgs, context);
  const enrolments = planEnrolments(source, snapshot, orgs, classes, users);
  // A reached organisation a delta row changes is covered by this import too (its run, its retention).
  const covered = [...orgs.covered, ...orgs.reached.filter((o) => users.touched.has(o.id) || enrolments.touched.has(o.id))];
  const stored = new Set(snapshot.users.map((u) => u.id));
  const disabling = new Set(users.holds.filter((h) => h.hold === 'disabled' && stored.has(h.userId)).map((h) => h.userId));
  const mass = massRemovalErrors(snapshot, { leaving: users.leaving, disabling, removedClasses: classes.removed }, covered, {
    percent: context.settings.massRemovalPercent, allowed: context.allowMassRemoval,
    usersFile: source.users[0]?.at.file ?? 'users.csv', classesFile: source.classes[0]?.at.file ?? 'classes.csv',
  });
  const errors: PlanError[] = [...orgs.errors, ...classes.errors, ...users.errors, ...enrolments.errors]
    .sort((a, b) => byText(a.file, b.file) || a.line - b.line || byText(a.column, b.column) || byText(a.message, b.message));
  return {
    kinds: {
      organisations: orgs.plan, academicSessions: sessions.plan, classes: classes.plan, users: users.plan, enrollments: enrolments.plan,
    },
    errors: [...source.errors, ...errors, ...mass],
    massRemoval: mass,
    notes: [...source.notes, ...orgs.notes, ...users.notes, ...enrolments.notes],
    changes: {
      organisations: orgs.changes.sort((a, b) => byText(a.slug, b.slug)),
      users: users.users,
      holds: users.holds,
      memberships: users.memberships,
      academicSessions: sessions.changes,
      classes: classes.changes,
      enrolments: enrolments.changes,
    },
    organisations: covered.map((o) => o.slug).sort(byText),
    admins: {
      people: [...users.administrators]
        .map(([userId, organisationIds]) => ({ userId, username: users.usernames.get(userId) ?? userId, organisationIds: organisationIds.sort(byText) }))
        .sort((a, b) => byText(a.userId, b.userId)),
      leaving: [...users.leaving].sort(byText),
      whole: source.modes.users === 'bulk' ? orgs.covered.map((o) => o.id).sort(byText) : [],
    },
  };
}
