import type { DeveloperDeps } from './deps.js';
import { INVITATION_SECONDS } from './invitations.js';
import { secretKey } from '../clients/client-secret.js';
import { type LinkRecord, LinkRecords } from './link-records.js';

/**
 * An address typed at open sign-up (`developer_signup: "open"`) is never verified, so an invitation to a team
 * cannot trust whoever signed up with the invited address: adding someone always gives the owner a link to
 * hand to them, and an account whose address was never verified accepts only with it (team-invitations.ts),
 * whatever sign-up is now. The link lasts INVITATION_DAYS, is used up when accepted, and works only for the
 * account with the invited address, while the invitation stands: a link that leaks is of no use to anyone
 * else, and withdrawing the invitation (or inviting the address again) ends it. An account made through the
 * operator's invitation link has its address verified (DeveloperAccount.emailVerifiedAt) and may accept
 * without it.
 */
export const TEAM_LINK_MODEL = 'TeamInvitationLink';
/**
 * Which link is an invitation's own (keyed by app and address): the latest made. Withdrawing, declining or
 * accepting the invitation removes it, so no earlier link works again, even if the address is invited again.
 */
const CURRENT_MODEL = 'TeamInvitationCurrentLink';
const currentKey = (clientId: string, email: string) => `${clientId} ${email}`;

export interface TeamLinkRecord extends LinkRecord {
  clientId: string;
  /** The invited address, as AppTeam keeps it (normalised). */
  email: string;
  createdAt: string;
}

export const teamInvitationPath = (token: string) => `/developer/team-invitations/${token}`;

export class TeamInvitationLinks {
  readonly #links: LinkRecords<TeamLinkRecord>;

  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'issuer'>) {
    this.#links = new LinkRecords(deps, TEAM_LINK_MODEL, INVITATION_SECONDS);
  }

  /** A new link for the invitation of `email` to the app's team (the one that works from now on). */
  async issue(clientId: string, email: string): Promise<{ url: string; expiresAt: Date }> {
    const { token, expiresAt } = await this.#links.issue((now, lapses) => ({ clientId, email, createdAt: now.toISOString(), expiresAt: lapses.toISOString() }));
    await this.deps.store.oidc.upsert(CURRENT_MODEL, currentKey(clientId, email), { link: secretKey(token) }, INVITATION_SECONDS);
    return { url: `${this.deps.issuer}${teamInvitationPath(token)}`, expiresAt };
  }

  /** The invitation is answered or withdrawn: none of its links works any more. */
  end(clientId: string, email: string): Promise<void> {
    return this.deps.store.oidc.destroy(CURRENT_MODEL, currentKey(clientId, email));
  }

  /**
   * The link's record while it works: not used, not lapsed, and the latest link of its invitation (which
   * answering or withdrawing the invitation ends). Whose invitation it is, the caller checks (clientId, email).
   */
  async current(token: string): Promise<TeamLinkRecord | undefined> {
    const link = await this.#links.find(token);
    if (!link || link.consumed || typeof link.clientId !== 'string' || typeof link.email !== 'string') return undefined;
    const latest = await this.deps.store.oidc.find(CURRENT_MODEL, currentKey(link.clientId, link.email));
    return latest?.link === secretKey(token) ? link : undefined;
  }

  consume(token: string): Promise<boolean> {
    return this.#links.consume(token);
  }
}
