import type { StoredClient, StoredClientSecret, TeamMember } from '../../adapters/store.js';
import type { ProposedChange } from './live-changes.js';

/** What the developer area's app services take and give: an app as one developer sees it, its team, a new secret. */

export interface AppDetailsInput {
  name?: string;
  description?: string;
  homepageUrl?: string;
  logoUrl?: string;
}

export interface AppSummary {
  client: StoredClient;
  /** Never `invited`: an invitation not yet accepted reaches no app. */
  role: Exclude<TeamMember['role'], 'invited'>;
  /** The changes waiting for an operator's review (a live app's), where a page shows them. */
  pending?: readonly ProposedChange[] | undefined;
}

export interface TeamMemberView extends TeamMember {
  email: string;
  displayName: string;
}

/** A new secret: `secret` is shown exactly once and never stored. */
export interface CreatedSecret {
  secret: string;
  record: StoredClientSecret;
}
