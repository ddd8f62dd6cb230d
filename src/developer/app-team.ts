import type { TeamMember } from '../../adapters/store.js';
import type { AppSummary, TeamMemberView } from './app-summary.js';
import type { Actor } from './actor.js';
import type { AppRecorder } from './app-history.js';
import { APP_LIMITS, checkEmail } from './app-input.js';
import type { DeveloperDeps } from './deps.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from './errors.js';
import type { TeamInvitationLinks } from './team-invitation-links.js';

/**
 * An invitation's team entry is held by the address the owner typed (`address:` and the address), never by
 * an account's id, whether or not an account has the address: so neither the form's answer, the team list,
 * its ids nor the history tells an owner whether an address has an account. The invited developer finds it
 * by their account's address (team-invitations.ts); accepting moves it to their account.
 * Stores from before this hold some invitations by an account's id: they are listed and withdrawn by the
 * account's address all the same (AppTeam's #invitedAddress and #entry).
 */
const ADDRESS = 'address:';
export const addressInvitee = (email: string): string => `${ADDRESS}${email}`;
const addressOf = (developerId: string): string | undefined =>
  (developerId.startsWith(ADDRESS) ? developerId.slice(ADDRESS.length) : undefined);

/**
 * What adding someone by email answers: the same whether or not an account has the address, and the link to
 * hand to them (team-invitation-links.ts), without which an account whose address was never verified cannot
 * accept it.
 */
export interface InvitationRecorded {
  email: string;
  link: { url: string; expiresAt: Date };
}

/**
 * An app's team (docs/developer-area.md): an app belongs to a team of developers, whose owner adds and removes
 * other developer accounts. Owners invite by email and remove members or withdraw invitations; a member may
 * leave; the last owner stays. Adding someone is an invitation (role `invited`) that grants nothing until the
 * invited developer accepts it (team-invitations.ts). An address typed at open sign-up is never verified, so
 * whoever signed up first with a colleague's address could accept it: such an account accepts only with the
 * invitation's link, which only the owner is given (whatever sign-up is now). Access is read from the store on every request, so a removed member
 * loses it at once. The caller holds the app's lock and has checked that the actor is in the team.
 */
export class AppTeam {
  constructor(
    private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'>,
    private readonly record: AppRecorder,
    private readonly links: TeamInvitationLinks,
  ) {}

  /** The address an invitation stands for: its own, or (an older store's entry) its account's; undefined for a member. */
  async #invitedAddress(m: TeamMember): Promise<string | undefined> {
    if (m.role !== 'invited') return undefined;
    return addressOf(m.developerId) ?? (await this.deps.store.findDeveloper(m.developerId))?.email ?? '(account deleted)';
  }

  /** The team; an invitation is listed by its address alone (its developerId is `address:` and the address). */
  async list(clientId: string): Promise<TeamMemberView[]> {
    const { store } = this.deps;
    const team = await store.listTeam(clientId);
    return Promise.all(team.map(async (m) => {
      const invited = await this.#invitedAddress(m);
      if (invited !== undefined) return { ...m, developerId: addressInvitee(invited), email: invited, displayName: invited };
      const d = await store.findDeveloper(m.developerId);
      return { ...m, email: d?.email ?? '(account deleted)', displayName: d?.displayName ?? '(account deleted)' };
    }));
  }

  /** The stored entry a listed id names (an invitation by its address: see list). */
  async #entry(team: TeamMember[], developerId: string): Promise<TeamMember | undefined> {
    const direct = team.find((m) => m.developerId === developerId);
    if (direct || addressOf(developerId) === undefined) return direct;
    for (const m of team) if (m.role === 'invited' && addressInvitee((await this.#invitedAddress(m))!) === developerId) return m;
    return undefined;
  }

  /**
   * Owner only: invites the address (see addressInvitee); the answer, the team list and the history are the
   * same whether or not an account has it. Someone already listed is refused: a member by name (the owner sees
   * them in the list), an invitation by the address typed.
   */
  async add(actor: Actor, app: AppSummary, emailInput: string): Promise<InvitationRecorded> {
    if (app.role !== 'owner') throw new ForbiddenError('Only an owner of the app can add people to its team.');
    const { store, clock } = this.deps;
    const clientId = app.client.clientId;
    const email = checkEmail(emailInput);
    const developer = await store.findDeveloperByEmail(email);
    const team = await store.listTeam(clientId);
    const listed = await this.#entry(team, addressInvitee(email)) ?? team.find((m) => m.developerId === developer?.id);
    if (listed) {
      throw new ValidationError([{
        path: 'email',
        message: listed.role === 'invited' ? `${email} is already invited: no one has answered yet.` : `${developer?.displayName ?? email} is already in this app’s team.`,
      }]);
    }
    // Invitations count too, so a team cannot be flooded with them; checked before anything about the address.
    if (team.length >= APP_LIMITS.teamSize) throw new ConflictError(`A team can have at most ${APP_LIMITS.teamSize} people, invitations included.`);
    await store.putTeamMember({ clientId, developerId: addressInvitee(email), role: 'invited', addedAt: clock.now().toISOString(), invitedBy: actor.id });
    const link = await this.links.issue(clientId, email);
    await this.record.change(actor, clientId, 'team.member_invited', { email }, 'app.team_member_invited', 'team member invited',
      { developerId: developer?.id, accountExists: !!developer });
    return { email, link };
  }

  async remove(actor: Actor, app: AppSummary, developerId: string): Promise<void> {
    const { store } = this.deps;
    const clientId = app.client.clientId;
    const leaving = developerId === actor.id;
    if (!leaving && app.role !== 'owner') throw new ForbiddenError('Only an owner of the app can remove people from its team.');
    const team = await store.listTeam(clientId);
    const target = await this.#entry(team, developerId);
    if (!target) throw new NotFoundError('This person is not in the app’s team.');
    if (target.role === 'owner' && team.filter((m) => m.role === 'owner').length === 1) {
      throw new ConflictError('An app always has an owner, so its last owner cannot leave or be removed. If no one should run the app any more, delete it.');
    }
    await store.removeTeamMember(clientId, target.developerId);
    const invited = await this.#invitedAddress(target);
    // An invitation is recorded by the address alone, as it was listed; the log never holds an address.
    if (invited !== undefined) {
      await this.links.end(clientId, invited);
      await this.record.change(actor, clientId, 'team.invitation_withdrawn', { developer_id: addressInvitee(invited), email: invited, name: '' },
        'app.team_invitation_withdrawn', 'team invitation withdrawn', { toAddress: true });
      return;
    }
    const d = await store.findDeveloper(target.developerId);
    const who = { developer_id: target.developerId, email: d?.email ?? '', name: d?.displayName ?? '' };
    await this.record.change(actor, clientId, leaving ? 'team.member_left' : 'team.member_removed', who,
      leaving ? 'app.team_member_left' : 'app.team_member_removed', leaving ? 'team member left' : 'team member removed', { developerId: target.developerId });
  }
}
