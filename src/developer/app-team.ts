import type { AppSummary, TeamMemberView } from './app-service.js';
import type { Actor } from './actor.js';
import type { AppRecorder } from './app-history.js';
import { APP_LIMITS, checkEmail } from './app-input.js';
import type { DeveloperDeps } from './deps.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from './errors.js';

/**
 * An app's team (issue 9 §1: "An app belongs to a team of developers: its owner can add and remove other
 * developer accounts"). Owners add existing accounts by email and remove members; a member may leave; the
 * last owner stays. Access is read from the store on every request, so a removed member loses it at once.
 * The caller holds the app's lock and has checked that the actor is in the team.
 */
export class AppTeam {
  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'>, private readonly record: AppRecorder) {}

  async list(clientId: string): Promise<TeamMemberView[]> {
    const { store } = this.deps;
    const team = await store.listTeam(clientId);
    return Promise.all(team.map(async (m) => {
      const d = await store.findDeveloper(m.developerId);
      return { ...m, email: d?.email ?? '(account deleted)', displayName: d?.displayName ?? '(account deleted)' };
    }));
  }

  async add(actor: Actor, app: AppSummary, emailInput: string): Promise<TeamMemberView> {
    if (app.role !== 'owner') throw new ForbiddenError('Only an owner of the app can add people to its team.');
    const { store, clock } = this.deps;
    const email = checkEmail(emailInput);
    const developer = await store.findDeveloperByEmail(email);
    if (!developer) {
      throw new ValidationError([{ path: 'email', message: 'No developer account has this email address. They need a developer account first (by invitation from your operator, or by signing up where that is open).' }]);
    }
    const team = await store.listTeam(app.client.clientId);
    if (team.some((m) => m.developerId === developer.id)) throw new ValidationError([{ path: 'email', message: `${developer.displayName} is already in this app’s team.` }]);
    if (team.length >= APP_LIMITS.teamSize) throw new ConflictError(`A team can have at most ${APP_LIMITS.teamSize} people.`);
    const member = { clientId: app.client.clientId, developerId: developer.id, role: 'member' as const, addedAt: clock.now().toISOString() };
    await store.putTeamMember(member);
    await this.record.change(actor, app.client.clientId, 'team.member_added', { developer_id: developer.id, email: developer.email, name: developer.displayName },
      'app.team_member_added', 'team member added', { developerId: developer.id });
    return { ...member, email: developer.email, displayName: developer.displayName };
  }

  async remove(actor: Actor, app: AppSummary, developerId: string): Promise<void> {
    const { store } = this.deps;
    const clientId = app.client.clientId;
    const leaving = developerId === actor.id;
    if (!leaving && app.role !== 'owner') throw new ForbiddenError('Only an owner of the app can remove people from its team.');
    const team = await store.listTeam(clientId);
    const target = team.find((m) => m.developerId === developerId);
    if (!target) throw new NotFoundError('This person is not in the app’s team.');
    if (target.role === 'owner' && team.filter((m) => m.role === 'owner').length === 1) {
      throw new ConflictError('An app always has an owner, so its last owner cannot leave or be removed. If no one should run the app any more, delete it.');
    }
    const d = await store.findDeveloper(developerId);
    await store.removeTeamMember(clientId, developerId);
    await this.record.change(actor, clientId, leaving ? 'team.member_left' : 'team.member_removed',
      { developer_id: developerId, email: d?.email ?? '', name: d?.displayName ?? '' },
      leaving ? 'app.team_member_left' : 'app.team_member_removed', leaving ? 'team member left' : 'team member removed', { developerId });
  }
}
