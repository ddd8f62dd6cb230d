import type { StoredClient } from '../../adapters/store.js';
import { type Actor, OPERATOR } from './actor.js';
import { withAppLock } from './app-change.js';
import { AppRecorder } from './app-history.js';
import type { AppSummary } from './app-service.js';
import type { DeveloperDeps } from './deps.js';
import { NotFoundError } from './errors.js';

/** An invitation to an app's team, as the invited developer sees it. */
export interface TeamInvitation {
  client: StoredClient;
  /** When the owner invited them. */
  invitedAt: string;
  invitedBy: { id: string; name: string };
}

export const NO_INVITATION = 'You have no invitation to this app’s team: it may have been withdrawn, or answered already.';

/**
 * The invited developer's side of an invitation (app-team.ts makes them): the pending invitations, accept
 * (the role becomes `member`, with access from that moment) and decline (the entry goes). An invitation
 * shows only the app's name and who invited them; nothing else of the app until they accept.
 */
export class TeamInvitations {
  readonly #record: AppRecorder;

  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'>) {
    this.#record = new AppRecorder(deps);
  }

  /** The developer's invitations not yet answered, oldest first (apps deleted meanwhile are left out). */
  async list(actor: Actor): Promise<TeamInvitation[]> {
    const { store } = this.deps;
    const pending = (await store.listMemberships(actor.id)).filter((m) => m.role === 'invited');
    const found = await Promise.all(pending.map(async (m) => {
      const client = await store.findClient(m.clientId);
      if (client?.source !== 'developer') return undefined;
      const by = m.invitedBy ? await store.findDeveloper(m.invitedBy) : undefined;
      const name = by?.displayName ?? (m.invitedBy === OPERATOR.id ? OPERATOR.name : '(account deleted)');
      return { client, invitedAt: m.addedAt, invitedBy: { id: m.invitedBy ?? '', name } };
    }));
    return found.filter((i): i is TeamInvitation => i !== undefined);
  }

  /** Joins the team as a member; NotFoundError when there is no such invitation (withdrawn, or never made). */
  async accept(actor: Actor, clientId: string): Promise<AppSummary> {
    const { store, clock } = this.deps;
    return withAppLock(store, clientId, async () => {
      const { client, invitation } = await this.#find(actor, clientId);
      await store.putTeamMember({ ...invitation, role: 'member', addedAt: clock.now().toISOString() });
      await this.#record.change(actor, clientId, 'team.invitation_accepted', await this.#who(actor),
        'app.team_invitation_accepted', 'team invitation accepted', { developerId: actor.id });
      return { client, role: 'member' };
    });
  }

  /** Removes the invitation; NotFoundError when there is none. */
  async decline(actor: Actor, clientId: string): Promise<StoredClient> {
    const { store } = this.deps;
    return withAppLock(store, clientId, async () => {
      const { client } = await this.#find(actor, clientId);
      await store.removeTeamMember(clientId, actor.id);
      await this.#record.change(actor, clientId, 'team.invitation_declined', await this.#who(actor),
        'app.team_invitation_declined', 'team invitation declined', { developerId: actor.id });
      return client;
    });
  }

  async #who(actor: Actor) {
    return { developer_id: actor.id, email: (await this.deps.store.findDeveloper(actor.id))?.email ?? '', name: actor.name };
  }

  async #find(actor: Actor, clientId: string) {
    const { store } = this.deps;
    const client = clientId ? await store.findClient(clientId) : undefined;
    const invitation = client?.source === 'developer'
      ? (await store.listTeam(clientId)).find((m) => m.developerId === actor.id && m.role === 'invited')
      : undefined;
    if (!client || !invitation) throw new NotFoundError(NO_INVITATION);
    return { client, invitation };
  }
}
