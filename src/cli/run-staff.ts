import type { Organisation, StaffGrant, StaffRole, Store, User } from '../../adapters/store.js';
import { type HeldRole, schoolStaff, TEACHING_ROLES } from '../accounts/school-staff.js';
import { badgeName } from '../badges/badge-name.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { withConfiguredStore } from './configured-store.js';
import { didYouMean } from './did-you-mean.js';
import { type CommandOutput, STANDARD_OUTPUT } from './output.js';
import { tableLines } from './table.js';

export interface StaffTarget { org: string; user: string; role: string }

/** One member of staff as `lanyard staff list --json` prints them. */
export interface StaffListing {
  userId: string;
  username: string;
  name: string;
  /** The slug of their own school, where it is another one (a member of this one through the roster). */
  school: string | null;
  roles: { role: StaffRole; source: HeldRole['source']; grantedAt: string | null; grantedBy: string | null; classes: string[] | null }[];
  twoStep: boolean;
}

/** How a grant's source reads in a sentence and in the table. */
const SOURCE_NAMES: Record<StaffGrant['source'], string> = { roster: 'the roster', config: 'the configuration file', console: 'the console', operator: 'the operator' };
const SOURCE_LABELS: Record<HeldRole['source'], string> = { roster: 'roster', config: 'config file', console: 'console', operator: 'operator', classes: 'classes' };

const who = (user: User) => `${user.username} (${badgeName(user)})`;

/** The organisation, or an error that names the likely typo. */
async function findSchool(store: Store, slug: string): Promise<Organisation> {
  const organisation = await store.findOrganisation(slug);
  if (organisation) return organisation;
  const guess = didYouMean(slug, (await store.searchOrganisations('', -1)).map((o) => o.slug));
  throw new Error(`no organisation "${slug}"${guess ? ` (did you mean ${guess}?)` : ''}`);
}

/** The organisation and one of its users, or an error that names the likely typo. */
async function findStaffTarget(store: Store, slug: string, username: string): Promise<{ organisation: Organisation; user: User }> {
  const organisation = await findSchool(store, slug);
  const user = await store.findUserByUsername(organisation.id, username);
  if (!user) {
    const guess = didYouMean(username, (await store.listUsers(organisation.id)).map((u) => u.username));
    throw new Error(`no user "${username}" in ${organisation.name}${guess ? ` (did you mean ${guess}?)` : ''}`);
  }
  return { organisation, user };
}

/** The classes of the school the roster enrols the user to teach. */
async function classesTaught(store: Store, organisation: Organisation, user: User): Promise<number> {
  const classes = new Set((await store.listClasses(organisation.id)).map((c) => c.id));
  return (await store.userEnrolments(user.id)).filter((e) => TEACHING_ROLES.has(e.role) && classes.has(e.classId)).length;
}

/**
 * `lanyard staff grant --org SLUG --user USERNAME --role admin|teacher` (docs/school-console.md → Who may do
 * what): the operator's grant, which a roster import and the configuration file leave alone. A role already
 * granted another way becomes the operator's.
 */
export async function grantStaffCommand(config: Config, clock: Clock, o: StaffTarget, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  const role = o.role as StaffRole;
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, user } = await findStaffTarget(store, o.org, o.user);
    const held = (await store.listStaffGrants(organisation.id)).find((g) => g.userId === user.id && g.role === role);
    if (held?.source === 'operator') return io.out(`${who(user)} is already ${role} in ${organisation.name}; nothing changed`);
    await store.putStaffGrant({ organisationId: organisation.id, userId: user.id, role, source: 'operator', grantedAt: clock.now().toISOString() });
    io.out(held
      ? `${who(user)} was already ${role} in ${organisation.name} by ${SOURCE_NAMES[held.source]}: now by the operator, which ${SOURCE_NAMES[held.source]} leaves alone`
      : `granted ${role} in ${organisation.name} to ${who(user)}`);
    if (role === 'admin' && !(await store.getStaffSecondFactor(user.id))) {
      io.err('note: a school admin must use two-step sign-in: the console asks them to turn it on when they next sign in');
    }
  });
}

/** `lanyard staff revoke --org SLUG --user USERNAME --role admin|teacher`: removes the grant, whoever made it. */
export async function revokeStaffCommand(config: Config, clock: Clock, o: StaffTarget, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  const role = o.role as StaffRole;
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, user } = await findStaffTarget(store, o.org, o.user);
    const held = (await store.listStaffGrants(organisation.id)).find((g) => g.userId === user.id && g.role === role);
    const taught = role === 'teacher' ? await classesTaught(store, organisation, user) : 0;
    const classes = `${taught} class${taught === 1 ? '' : 'es'} there, as the roster says (a roster import changes that)`;
    if (!held || !(await store.deleteStaffGrant(organisation.id, user.id, role))) {
      throw new Error(`${who(user)} has no ${role} grant in ${organisation.name}${taught ? `; they teach ${classes}` : ''}`);
    }
    io.out(`revoked ${role} in ${organisation.name} from ${who(user)}`);
    if (held.source === 'roster') io.err(`note: a roster import grants it again while the roster names ${user.username} an administrator of ${organisation.name}`);
    if (held.source === 'config') io.err(`note: the next start grants it again while the configuration file lists it in ${user.username}'s staff_roles`);
    if (taught) io.err(`note: ${user.username} still teaches ${classes}`);
  });
}

const listing = (p: Awaited<ReturnType<typeof schoolStaff>>[number], school: string | null): StaffListing => ({
  userId: p.user.id,
  username: p.user.username,
  name: badgeName(p.user),
  school,
  roles: p.roles.map((r) => ({ role: r.role, source: r.source, grantedAt: r.grantedAt ?? null, grantedBy: r.grantedBy ?? null, classes: r.classIds ?? null })),
  twoStep: p.twoStep,
});

const roleText = (r: StaffListing['roles'][number]) =>
  `${r.role} (${r.source === 'classes' ? `${r.classes!.length} class${r.classes!.length === 1 ? '' : 'es'}` : SOURCE_LABELS[r.source]})`;

/**
 * `lanyard staff list --org SLUG [--json]`: the school's staff by username, each with their roles and where
 * they come from (a grant's maker, or the classes the roster enrols them to teach) and whether they have
 * turned on two-step sign-in.
 */
export async function listStaffCommand(config: Config, clock: Clock, o: { org: string; json?: boolean | undefined }, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const organisation = await findSchool(store, o.org);
    const staff = await Promise.all((await schoolStaff(store, organisation)).map(async (p) =>
      listing(p, p.user.organisationId === organisation.id ? null : (await store.findOrganisation(p.user.organisationId))?.slug ?? null)));
    if (o.json) return io.out(JSON.stringify(staff, null, 2));
    if (!staff.length) return io.out(`${organisation.name} has no staff yet (lanyard staff grant --org ${organisation.slug} --user USERNAME --role admin)`);
    const rows = [['USERNAME', 'NAME', 'ROLES', 'TWO-STEP'],
      ...staff.map((s) => [s.username, s.school ? `${s.name} (${s.school})` : s.name, s.roles.map(roleText).join(', '), s.twoStep ? 'on' : 'off'])];
    for (const line of tableLines(rows)) io.out(line);
  });
}
