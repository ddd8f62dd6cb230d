import type { DeveloperAccount, DeveloperApiToken, DeveloperEvent, StoredClient, StoredClientSecret } from '../../../adapters/store.js';
import { logoPath } from '../../clients/logo-image.js';
import { shownActorName } from '../actor.js';
import type { AppSummary, TeamMemberView } from '../app-summary.js';
import type { ProposedChange } from '../live-changes.js';
import type { SandboxCredentials } from '../sandbox.js';
import type { TeamInvitation } from '../team-invitations.js';

/**
 * The API's JSON for each record: snake_case, absent values left out (never null), and never a hash. These
 * are the shapes of src/developer/api/schemas.ts; the response serialiser drops anything not listed there.
 */

/** Drops undefined values, so an absent field is absent in the JSON too. */
function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export const meJson = (d: DeveloperAccount) => ({
  id: d.id,
  email: d.email,
  display_name: d.displayName,
  totp_enabled: d.totpSecret !== undefined && d.totpSecret !== '',
});

export const tokenJson = (t: DeveloperApiToken) => defined({
  id: t.id,
  label: t.label,
  hint: t.hint,
  created_at: t.createdAt,
  expires_at: t.expiresAt,
  last_used_at: t.lastUsedAt,
});

export const proposalJson = (p: ProposedChange) => ({
  id: p.id, setting: p.kind, url: p.url, proposed_by: { id: p.proposedBy.id, name: p.proposedBy.name }, proposed_at: p.proposedAt,
});

/**
 * An app as a team member without two-step sign-in may see it once it is live (docs/developer-area.md →
 * Changes to a live app): its name, status and role, its settings withheld (the lists empty) until they turn
 * two-step sign-in on.
 */
export const withheldAppJson = (c: StoredClient, role: AppSummary['role']) => ({
  client_id: c.clientId,
  name: c.name,
  status: c.status,
  redirect_uris: [],
  default_scopes: [],
  role,
  two_step_required: true,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

/** An app in a list (or just joined), as the actor may see it: withheld when it is live and they have no second factor. */
export const listedAppJson = (c: StoredClient, role: AppSummary['role'], actor: { twoStep?: boolean | undefined }) =>
  (c.status === 'live' && !actor.twoStep ? withheldAppJson(c, role) : appJson(c, role));

/** An app as its team sees it; with the changes waiting for review when given and there are some. */
export const appJson = (c: StoredClient, role: AppSummary['role'], pending: ProposedChange[] = []) => defined({
  client_id: c.clientId,
  name: c.name,
  description: c.description,
  homepage_url: c.homepageUrl,
  logo_url: c.logoUrl,
  logo_image: logoPath(c),
  status: c.status,
  review_note: c.reviewNote,
  redirect_uris: [...c.redirectUris],
  default_scopes: [...c.defaultScopes],
  logout_url: c.logoutUrl,
  initiate_login_uri: c.initiateLoginUri,
  role,
  pending_changes: pending.length ? pending.map(proposalJson) : undefined,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

export const secretJson = (s: StoredClientSecret) => defined({
  id: s.id,
  label: s.label,
  hint: s.hint,
  created_at: s.createdAt,
  last_used_at: s.lastUsedAt,
  expires_at: s.expiresAt,
});

export const memberJson = (m: TeamMemberView) => ({
  developer_id: m.developerId,
  email: m.email,
  display_name: m.displayName,
  role: m.role,
  added_at: m.addedAt,
});

export const invitationJson = (i: TeamInvitation) => ({
  client_id: i.client.clientId,
  app_name: i.client.name,
  invited_by: { id: i.invitedBy.id, name: i.invitedBy.name },
  invited_at: i.invitedAt,
});

export const eventJson = (e: DeveloperEvent) => ({
  at: e.at,
  actor: { id: e.actorId, name: shownActorName(e.actorName) },
  action: e.action,
  detail: e.detail,
});

export const sandboxJson = (s: SandboxCredentials) => ({
  organisation: { id: s.organisation.id, slug: s.organisation.slug, name: s.organisation.name },
  users: s.users.map((u) => defined({
    role: u.role,
    type: u.type,
    username: u.username,
    given_name: u.givenName,
    family_name: u.familyName,
    id: u.id,
    password: u.password,
    emoji: u.emoji?.map((e) => ({ name: e.name, glyph: e.glyph })),
    badge: u.badge ? { code: u.badge.code, qr_data_url: u.badge.qrDataUrl } : undefined,
  })),
});
