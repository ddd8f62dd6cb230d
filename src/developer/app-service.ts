import type { DeveloperEvent, StoredClient, StoredClientSecret } from '../../adapters/store.js';
import { isOfferedScope, OFFERED_SCOPES, offeredScopeNames } from '../clients/offered-scopes.js';
import { type Actor, OPERATOR } from './actor.js';
import { changeApp, type Edit, withAppLock } from './app-change.js';
import { AppRecorder } from './app-history.js';
import { AppSchools } from './app-schools.js';
import { AppReview, LIVE_REQUESTED, type PendingRequest } from './app-review.js';
import { checkDetails } from './app-input.js';
import { AppTeam, type InvitationRecorded } from './app-team.js';
import { URL_SETTINGS } from './app-url-edits.js';
import { AppUrls, type UrlChangeOutcome } from './app-urls.js';
import { LiveChanges, type ProposedChange } from './live-changes.js';
import type { FetchedLogo } from '../clients/logo-fetcher.js';
import { AppLogos } from './app-logos.js';
import { registerApp } from './app-registration.js';
import { AppSecrets } from './app-secrets.js';
import type { DeveloperDeps } from './deps.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from './errors.js';
import { TeamInvitationLinks } from './team-invitation-links.js';
import { TeamInvitations } from './team-invitations.js';
import type { AppDetailsInput, AppSummary, CreatedSecret, TeamMemberView } from './app-summary.js';

/** Why a member without two-step sign-in is kept out of a live app. */
export const TWO_STEP_FOR_LIVE = 'This app is live: turn on two-step sign-in (Account → Two-step sign-in) to see or change it. '
  + 'Everyone in the team of an app real pupils use signs in with a second factor.';

/** The history shows this many changes unless asked for fewer; never more than HISTORY_MAX (the API's bound too). */
export const HISTORY_DEFAULT = 100;
export const HISTORY_MAX = 200;

/**
 * Everything a developer (or the operator) can do to apps; pages and the JSON API are thin layers over it.
 * Access: a developer reaches only apps whose team they are in; any other client_id is NotFoundError (404),
 * and so is an app they are only invited to (they reach it once they accept: `invitations`).
 * Access is read from the store on every call, so a removed team member loses it at once, on every instance.
 * Validation failures are ValidationError with field paths (`name`, `homepage_url`, `redirect_uri`, …).
 * Every change is recorded as a DeveloperEvent on `app:<client_id>` (never with a secret) and logged.
 * Only apps from the developer area are reachable here: config-file clients belong to the config file.
 */
export class AppService {
  readonly #team: AppTeam;
  readonly #record: AppRecorder;
  readonly #review: AppReview;
  readonly #urls: AppUrls;
  readonly #logos: AppLogos;
  readonly #secrets: AppSecrets;
  /** The invited developer's side: their pending invitations, accept, decline. */
  readonly invitations: TeamInvitations;
  /** A live app's schools: which use it, which were asked, and asking one (app-schools.ts). */
  readonly schools: AppSchools;

  /** `issuer` begins the link each team invitation comes with (team-invitation-links.ts). */
  constructor(readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'> & Partial<Pick<DeveloperDeps, 'issuer' | 'logos'>>) {
    this.#logos = new AppLogos(deps);
    const links = new TeamInvitationLinks({ ...deps, issuer: deps.issuer ?? '' });
    this.invitations = new TeamInvitations(deps, links);
    this.schools = new AppSchools(deps);
    this.#record = new AppRecorder(deps);
    this.#team = new AppTeam(deps, this.#record, links);
    this.#review = new AppReview(deps, this.#record);
    this.#secrets = new AppSecrets(deps, this.#record, (actor, clientId) => this.getApp(actor, clientId));
    this.#urls = new AppUrls(deps, this.#record, new LiveChanges(deps, this.#record), (actor, clientId) => this.getApp(actor, clientId));
  }

  /** The developer's apps (every team they are in; invitations are not apps yet), by name. */
  async listApps(actor: Actor): Promise<AppSummary[]> {
    const { store } = this.deps;
    const memberships = (await store.listMemberships(actor.id)).filter((m) => m.role !== 'invited');
    const apps = await Promise.all(memberships.map(async (m) => ({ client: await store.findClient(m.clientId), role: m.role })));
    return apps
      .filter((a): a is AppSummary => a.client?.source === 'developer')
      .sort((a, b) => a.client.name.localeCompare(b.client.name, 'en', { sensitivity: 'base' }) || a.client.clientId.localeCompare(b.client.clientId));
  }

  /** One app the developer is in the team of; NotFoundError otherwise. The operator reaches every developer app. */
  async getApp(actor: Actor, clientId: string): Promise<AppSummary> {
    const { store } = this.deps;
    const client = clientId ? await store.findClient(clientId) : undefined;
    if (!client || client.source !== 'developer') throw new NotFoundError();
    if (actor.id === OPERATOR.id) return { client, role: 'owner' };
    const member = (await store.listTeam(clientId)).find((m) => m.developerId === actor.id);
    // Invited is not in the team: the same 404 as for a stranger, until they accept.
    if (!member || member.role === 'invited') throw new NotFoundError();
    // A live app signs in real pupils: its team works on it only with a second factor.
    if (client.status === 'live' && !actor.twoStep) throw new ForbiddenError(TWO_STEP_FOR_LIVE);
    return { client, role: member.role };
  }

  /** Registers an app in `development`, with a random client_id; the actor becomes its owner (app-registration.ts). */
  register(actor: Actor, input: AppDetailsInput & { name: string }): Promise<StoredClient> {
    return registerApp(this.deps, this.#logos, this.#record, actor, input);
  }

  /**
   * A logo URL is fetched when it is set, changed, or was never fetched (docs/security.md → App logos):
   * one that cannot be is refused (`logo_url`), and nothing else changes either.
   */
  async updateDetails(actor: Actor, clientId: string, input: AppDetailsInput): Promise<StoredClient> {
    const change = checkDetails(input, false);
    let logo: FetchedLogo | undefined;
    if (change.logoUrl) {
      // Access first: Lanyard fetches nothing for a stranger.
      const { client } = await this.getApp(actor, clientId);
      if (this.#logos.needsFetch(client, change)) logo = await this.#logos.fetch(change.logoUrl);
    }
    return this.#change(actor, clientId, (client) => this.#logos.detailsEdit(client, change, logo));
  }

  /** Adds a callback URL; on a live app, proposes it for review (src/developer/app-urls.ts). */
  addCallback(actor: Actor, clientId: string, url: string): Promise<UrlChangeOutcome> {
    return this.#urls.addCallback(actor, clientId, url);
  }

  removeCallback(actor: Actor, clientId: string, url: string): Promise<StoredClient> {
    return this.#urls.removeCallback(actor, clientId, url);
  }

  async listSecrets(actor: Actor, clientId: string): Promise<StoredClientSecret[]> {
    return this.secretsOf(await this.getApp(actor, clientId));
  }

  /** The secrets of an app getApp() gave the caller (an AppSummary is the proof of access: no second check). */
  secretsOf(app: AppSummary): Promise<StoredClientSecret[]> {
    return this.deps.store.listClientSecrets(app.client.clientId);
  }

  /** A 256-bit secret with a label and an optional expiry (ISO 8601 instant in the future). */
  createSecret(actor: Actor, clientId: string, input: { label: string; expiresAt?: string | undefined }): Promise<CreatedSecret> {
    return this.#secrets.create(actor, clientId, input);
  }

  /** Removes the secret from the store: every instance reads secrets from there, so it stops working at once. */
  revokeSecret(actor: Actor, clientId: string, secretId: string): Promise<void> {
    return this.#secrets.revoke(actor, clientId, secretId);
  }

  /** Only scopes Lanyard offers (src/clients/offered-scopes.ts). */
  async setDefaultScopes(actor: Actor, clientId: string, scopes: string[]): Promise<StoredClient> {
    const unknown = scopes.filter((s) => !isOfferedScope(s));
    if (unknown.length) {
      throw new ValidationError([{
        path: 'default_scopes',
        message: `Lanyard does not offer ${unknown.map((s) => `“${s}”`).join(', ')} as a default scope; choose from: ${offeredScopeNames().join(', ')}.`,
      }]);
    }
    const chosen = OFFERED_SCOPES.map((s) => s.name).filter((s) => scopes.includes(s)); // offered order, no duplicates
    return this.#change(actor, clientId, (client) => {
      if (chosen.join(' ') === client.defaultScopes.join(' ')) return undefined;
      return { client: { ...client, defaultScopes: chosen }, action: 'scopes.changed', detail: { scopes: chosen } };
    });
  }

  /** undefined (or '') clears it; on a live app a new value waits for review. */
  setLogoutUrl(actor: Actor, clientId: string, url: string | undefined): Promise<UrlChangeOutcome> {
    return this.#urls.setUrl(actor, clientId, url, URL_SETTINGS.logoutUrl);
  }

  /**
   * Where a dashboard launch sends the browser (OpenID Connect Core §4: third-party initiated login, with `iss`,
   * `login_hint` and `target_link_uri`); the same URL rules as a callback URL. undefined (or '') clears it: a
   * launch then brings a code to the first callback URL. On a live app a new value waits for review.
   */
  setInitiateLoginUri(actor: Actor, clientId: string, url: string | undefined): Promise<UrlChangeOutcome> {
    return this.#urls.setUrl(actor, clientId, url, URL_SETTINGS.initiateLoginUri);
  }

  /** The app's changes waiting for review (docs/developer-area.md → Changes to a live app). */
  proposalsOf(app: AppSummary): Promise<ProposedChange[]> {
    return this.#urls.live.list(app.client.clientId);
  }

  /** A team member withdraws a change still waiting for review. */
  async withdrawChange(actor: Actor, clientId: string, changeId: string): Promise<void> {
    await this.getApp(actor, clientId);
    await this.#urls.live.withdraw(actor, clientId, changeId);
  }

  /** Operator: every live app with changes waiting for review. */
  listProposals(): ReturnType<LiveChanges['listAll']> { return this.#urls.live.listAll(); }

  /** Operator: a change waiting for review takes effect. */
  approveChange(actor: Actor, clientId: string, changeId: string): Promise<StoredClient> { return this.#urls.live.approve(actor, clientId, changeId); }

  /** Operator: a change waiting for review is dropped, with a note the team sees. */
  declineChange(actor: Actor, clientId: string, changeId: string, note?: string): Promise<ProposedChange> {
    return this.#urls.live.decline(actor, clientId, changeId, note);
  }

  /** Owner only: removes the app, its secrets and team, and revokes its grants and tokens. */
  async deleteApp(actor: Actor, clientId: string): Promise<void> {
    const { store } = this.deps;
    await withAppLock(store, clientId, async () => {
      const { client, role } = await this.getApp(actor, clientId);
      if (role !== 'owner') throw new ForbiddenError('Only an owner of the app can delete it.');
      // The client first: from this moment no instance finds it, so no new code, token or refresh is issued.
      await store.deleteClient(clientId);
      const revoked = await store.oidc.revokeByClientId(clientId);
      await store.deleteTeam(clientId);
      await this.#urls.live.forget(clientId);
      await this.#record.change(actor, clientId, 'app.deleted', { name: client.name }, 'app.deleted', 'app deleted', { revoked });
    });
  }

  async listTeam(actor: Actor, clientId: string): Promise<TeamMemberView[]> {
    return this.teamOf(await this.getApp(actor, clientId));
  }

  /** The team of an app getApp() gave the caller. */
  teamOf(app: AppSummary): Promise<TeamMemberView[]> {
    return this.#team.list(app.client.clientId);
  }

  /** Owner only: invites this email; the same answer whether or not an account has it, with the invitation's link. */
  async addTeamMember(actor: Actor, clientId: string, email: string): Promise<InvitationRecorded> {
    return withAppLock(this.deps.store, clientId, async () => this.#team.add(actor, await this.getApp(actor, clientId), email));
  }

  /** Owner only (or a member removing themself), an invitation too (withdrawn); the last owner cannot be removed. */
  async removeTeamMember(actor: Actor, clientId: string, developerId: string): Promise<void> {
    await withAppLock(this.deps.store, clientId, async () => this.#team.remove(actor, await this.getApp(actor, clientId), developerId));
  }

  /** The app's changes, newest first. */
  async history(actor: Actor, clientId: string, limit = HISTORY_DEFAULT): Promise<DeveloperEvent[]> {
    return this.historyOf(await this.getApp(actor, clientId), limit);
  }

  /** The history of an app getApp() gave the caller, newest first. */
  historyOf(app: AppSummary, limit = HISTORY_DEFAULT): Promise<DeveloperEvent[]> {
    const n = Math.min(Math.max(1, Math.floor(limit) || HISTORY_DEFAULT), HISTORY_MAX);
    return this.deps.store.listDeveloperEvents(`app:${app.client.clientId}`, n);
  }

  /** development → pending (ConflictError otherwise). Needs at least one callback URL. */
  async requestLive(actor: Actor, clientId: string): Promise<StoredClient> {
    return this.#change(actor, clientId, (client) => {
      if (client.status === 'pending') throw new ConflictError('This app is already waiting for review.');
      if (client.status === 'live') throw new ConflictError('This app is already live.');
      if (client.redirectUris.length === 0) throw new ConflictError('Add at least one callback URL before asking to go live.');
      return { client: { ...client, status: 'pending', reviewNote: undefined }, action: LIVE_REQUESTED, detail: {} };
    });
  }

  /** Every app registered in the developer area (the operator's list), by name. */
  listAll(): Promise<StoredClient[]> { return this.#review.listAll(); }

  /** Operator (CLI): the queue of apps waiting to go live, oldest request first. */
  listPending(): Promise<PendingRequest[]> { return this.#review.listPending(); }

  /** When the app last asked to go live (undefined when it never did). */
  requestedAt(clientId: string): Promise<string | undefined> { return this.#review.requestedAt(clientId); }

  /** Operator: pending → live. */
  async approve(actor: Actor, clientId: string): Promise<StoredClient> { return this.#review.approve(actor, clientId); }

  /** Operator: pending → development, with a note the developers see. */
  async decline(actor: Actor, clientId: string, note?: string): Promise<StoredClient> { return this.#review.decline(actor, clientId, note); }

  /** One change to the app's settings, under its lock, as the actor sees it (app-change.ts). */
  #change(actor: Actor, clientId: string, edit: (client: StoredClient) => Edit | undefined): Promise<StoredClient> {
    return changeApp(this.deps, this.#record, actor, clientId, async () => (await this.getApp(actor, clientId)).client, edit);
  }
}
