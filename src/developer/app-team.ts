import type { AppSummary, TeamMemberView } from './app-service.js';
import type { Actor } from './actor.js';
import type { AppRecorder } from './app-history.js';
import { APP_LIMITS, checkEmail } from './app-input.js';
import type { DeveloperDeps } from './deps.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from './errors.js';

/**
 * The team entry of an invitation to an address no account has yet: the address stands in for the developer
 * id until an account is made with it (DeveloperAccounts.create then moves the invitation to that account).
 * So the team lists the invitation either way, and neither the form's answer nor the list tells an owner
 * whether an address has an account.
 */
const ADDRESS = 'address:';
export const addressInvitee = (email: string): string => `${ADDRESS}${email}`;
const addressOf = (developerId: string): string | undefined =>
  (developerId.startsWith(ADDRESS) ? developerId.slice(ADDRESS.length) : undefined);

/** What adding someone by email answers: the same whether or not an account has the address. */
export interface InvitationRecorded {
  email: string;
}

/**
 * An app's team (issue 9 §1: "An app belongs to a team of developers: its owner can add and remove other
 * developer accounts"). Owners invite accounts by email and remove members or withdraw invitations; a member
 * may leave; the last owner stays. Adding someone is an invitation (role `invited`) that grants nothing until
 * the invited developer accepts it (team-invitations.ts): with open sign-up no address is verified, so
 * whoever signed up first with a colleague's address would otherwise join a live app the moment the owner
 * typed it. Access is read from the store on every request, so a removed member loses it at once.
 * The caller holds the app's lock and has checked that the actor is in the team.
 */
export class AppTeam {
  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'>, private readonly record: AppRecorder) {}

  /** Who a team entry stands for: an invitation's address (addressInvitee), else the account, gone once deleted. */
  async #entry(developerId: string) {
    const address = addressOf(developerId);
    return { address, account: address === undefined ? await this.deps.store.findDeveloper(developerId) : undefined };
  }

  async list(clientId: string): Promise<TeamMemberView[]> {
    const { store } = this.deps;
    const team = await store.listTeam(clientId);
    return Promise.all(team.map(async (m) => {
      const { address, account: d } = await this.#entry(m.developerId);
      const email = address ?? d?.email ?? '(account deleted)';
      // An invitation shows the address the owner typed, never an account's name: that would say one exists.
      return { ...m, email, displayName: m.role === 'invited' ? email : d?.displayName ?? '(account deleted)' };
    }));
  }

  /**
   * Owner only: invites the account with this email, or, when no account has it, the address itself (see
   * addressInvitee): the answer, the team list and the history are the same either way. Someone already listed
   * is refused: a member by name (the owner sees it in the list), an invitation by the address typed.
   */
  async add(actor: Actor, app: AppSummary, emailInput: string): Promise<InvitationRecorded> {
    if (app.role !== 'owner') throw new ForbiddenError('Only an owner of the app can add people to its team.');
    const { store, clock } = this.deps;
    const clientId = app.client.clientId;
    const email = checkEmail(emailInput);
    const developer = await store.findDeveloperByEmail(email);
    const invitee = developer?.id ?? addressInvitee(email);
    const team = await store.listTeam(clientId);
    const listed = team.find((m) => m.developerId === invitee);
    if (listed) {
      throw new ValidationError([{
        path: 'email',
        message: listed.role === 'invited' ? `${email} is already invited: no one has answered yet.` : `${developer?.displayName ?? email} is already in this app’s team.`,
      }]);
    }
    // Invitations count too, so a team cannot be flooded with them; checked before anything about the address.
    if (team.length >= APP_LIMITS.teamSize) throw new ConflictError(`A team can have at most ${APP_LIMITS.teamSize} people, invitations included.`);
    await store.putTeamMember({ clientId, developerId: invitee, role: 'invited', addedAt: clock.now().toISOString(), invitedBy: actor.id });
    await this.record.change(actor, clientId, 'team.member_invited', { email }, 'app.team_member_invited', 'team member invited',
      { developerId: developer?.id, accountExists: !!developer });
    return { email };
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
    const { address, account: d } = await this.#entry(developerId);
    await store.removeTeamMember(clientId, developerId);
    // An invitation is recorded by the address alone, as it was listed; the log never holds an address.
    const who = { developer_id: developerId, email: address ?? d?.email ?? '', name: target.role === 'invited' ? '' : d?.displayName ?? '' };
    if (target.role === 'invited') {
      await this.record.change(actor, clientId, 'team.invitation_withdrawn', who, 'app.team_invitation_withdrawn', 'team invitation withdrawn',
        address === undefined ? { developerId } : { toAddress: true });
      return;
    }
    await this.record.change(actor, clientId, leaving ? 'team.member_left' : 'team.member_removed', who,
      leaving ? 'app.team_member_left' : 'app.team_member_removed', leaving ? 'team member left' : 'team member removed', { developerId });
  }
}
