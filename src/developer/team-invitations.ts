import type { DeveloperAccount, StoredClient, TeamMember } from '../../adapters/store.js';
import { type Actor, OPERATOR } from './actor.js';
import { withAppLock } from './app-change.js';
import { AppRecorder } from './app-history.js';
import type { AppSummary } from './app-summary.js';
import { addressInvitee } from './app-team.js';
import type { DeveloperDeps } from './deps.js';
import { ForbiddenError, NotFoundError } from './errors.js';
import type { TeamInvitationLinks } from './team-invitation-links.js';

/** An invitation to an app's team, as the invited developer sees it. */
export interface TeamInvitation {
  client: StoredClient;
  /** When the owner invited them. */
  invitedAt: string;
  invitedBy: { id: string; name: string };
  /** Accepted only through the link the owner was given: the account's address was never verified (team-invitation-links.ts). */
  byLink: boolean;
}

/** Whether the account's address was shown to be its holder's (made through an invitation link), whatever sign-up is now. */
const verified = (account: DeveloperAccount | undefined): boolean => account?.emailVerifiedAt !== undefined;

export const NO_INVITATION = 'You have no invitation to this app’s team: it may have been withdrawn, or answered already.';
export const ACCEPT_BY_LINK = 'An invitation to a team is accepted through the link the app’s owner was given when they invited you: open the link they sent you.';
export const NO_LINK = 'This invitation link does not work for your account: it has lapsed or been used, the invitation was withdrawn, or it was meant for another address. Ask the app’s owner to invite you again.';

/**
 * The invited developer's side of an invitation (app-team.ts makes them): the pending invitations, accept
 * (the role becomes `member`, with access from that moment) and decline (the entry goes). An invitation is
 * held by the invited address and found by the account's address; accepting moves it to the account. An
 * account whose address was never verified (made by open sign-up, or before verification was recorded)
 * accepts only through the invitation's link (`links`), whatever the sign-up setting is now: switching
 * sign-up to invitations does not make an address typed at open sign-up anyone's proven address. An
 * invitation shows only the app's name and who invited them; nothing else of the app until they accept.
 */
export class TeamInvitations {
  readonly #record: AppRecorder;

  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'>, private readonly links: TeamInvitationLinks) {
    this.#record = new AppRecorder(deps);
  }

  /** The developer's invitations not yet answered, oldest first (apps deleted meanwhile are left out). */
  async list(actor: Actor): Promise<TeamInvitation[]> {
    const account = await this.#account(actor);
    const found = await Promise.all((await this.#entries(actor, account?.email)).map((m) => this.#view(m, account)));
    return found.filter((i): i is TeamInvitation => i !== undefined);
  }

  /** The invitation a link stands for, when the link is this developer's and the invitation still stands. */
  async byLink(actor: Actor, token: string): Promise<TeamInvitation | undefined> {
    const link = await this.links.current(token);
    const account = await this.#account(actor);
    if (!link || link.email !== account?.email) return undefined;
    const entry = (await this.#entries(actor, account.email)).find((m) => m.clientId === link.clientId);
    return entry && this.#view(entry, account);
  }

  /**
   * Joins the team as a member; NotFoundError when there is no such invitation (withdrawn, or never made), or
   * a link came that is not this invitation's; ForbiddenError when the account's address was never verified
   * and no link came.
   */
  async accept(actor: Actor, clientId: string, token?: string): Promise<AppSummary> {
    const { store, clock } = this.deps;
    return withAppLock(store, clientId, async () => {
      const account = await this.#account(actor);
      const email = account?.email;
      const { client, invitation } = await this.#find(actor, email, clientId);
      if (!token && !verified(account)) {
        this.deps.log.info({ event: 'app.team_invitation_link_required', clientId, developerId: actor.id }, 'team invitation needs its link: address not verified');
        throw new ForbiddenError(ACCEPT_BY_LINK);
      }
      if (token) {
        const link = await this.links.current(token);
        if (link?.clientId !== clientId || link.email !== email || !(await this.links.consume(token))) throw new NotFoundError(NO_LINK);
      }
      await store.putTeamMember({ ...invitation, developerId: actor.id, role: 'member', addedAt: clock.now().toISOString() });
      if (invitation.developerId !== actor.id) await store.removeTeamMember(clientId, invitation.developerId);
      await this.#ended(clientId, email);
      await this.#record.change(actor, clientId, 'team.invitation_accepted', this.#who(actor, email),
        'app.team_invitation_accepted', 'team invitation accepted', { developerId: actor.id });
      return { client, role: 'member' };
    });
  }

  /** Removes the invitation; NotFoundError when there is none. */
  async decline(actor: Actor, clientId: string): Promise<StoredClient> {
    const { store } = this.deps;
    return withAppLock(store, clientId, async () => {
      const email = await this.#email(actor);
      const { client, invitation } = await this.#find(actor, email, clientId);
      await store.removeTeamMember(clientId, invitation.developerId);
      await this.#ended(clientId, email);
      await this.#record.change(actor, clientId, 'team.invitation_declined', this.#who(actor, email),
        'app.team_invitation_declined', 'team invitation declined', { developerId: actor.id });
      return client;
    });
  }

  /** The invitation is answered: its link works no more. */
  async #ended(clientId: string, email: string | undefined): Promise<void> {
    if (email) await this.links.end(clientId, email);
  }

  #account(actor: Actor): Promise<DeveloperAccount | undefined> {
    return this.deps.store.findDeveloper(actor.id);
  }

  async #email(actor: Actor): Promise<string | undefined> {
    return (await this.#account(actor))?.email;
  }

  #who(actor: Actor, email: string | undefined) {
    return { developer_id: actor.id, email: email ?? '', name: actor.name };
  }

  /** The developer's invitation entries: by their address, and (an older store's) by their account's id. */
  async #entries(actor: Actor, email: string | undefined): Promise<TeamMember[]> {
    const { store } = this.deps;
    const held = [...await store.listMemberships(actor.id), ...(email ? await store.listMemberships(addressInvitee(email)) : [])];
    return held.filter((m) => m.role === 'invited').sort((a, b) => a.addedAt.localeCompare(b.addedAt) || a.clientId.localeCompare(b.clientId));
  }

  async #view(m: TeamMember, account: DeveloperAccount | undefined): Promise<TeamInvitation | undefined> {
    const { store } = this.deps;
    const client = await store.findClient(m.clientId);
    if (client?.source !== 'developer') return undefined;
    const by = m.invitedBy ? await store.findDeveloper(m.invitedBy) : undefined;
    const name = by?.displayName ?? (m.invitedBy === OPERATOR.id ? OPERATOR.name : '(account deleted)');
    return { client, invitedAt: m.addedAt, invitedBy: { id: m.invitedBy ?? '', name }, byLink: !verified(account) };
  }

  async #find(actor: Actor, email: string | undefined, clientId: string) {
    const client = clientId ? await this.deps.store.findClient(clientId) : undefined;
    const invitation = client?.source === 'developer' ? (await this.#entries(actor, email)).find((m) => m.clientId === clientId) : undefined;
    if (!client || !invitation) throw new NotFoundError(NO_INVITATION);
    return { client, invitation };
  }
}
