import type { DeveloperAccount } from '../../adapters/store.js';

/** Who is making a change, for the history: a developer, or the operator at the command line. */
export interface Actor {
  id: string;
  name: string;
  /**
   * Whether the developer signs in with a second factor (TOTP): a live app's team must
   * (docs/developer-area.md → Changes to a live app). Unset for the operator, who needs none.
   */
  twoStep?: boolean | undefined;
}

export const OPERATOR: Actor = { id: 'operator', name: 'Lanyard’s operator' };

/** What earlier builds recorded as the operator's name (a store's history keeps it). */
const EARLIER_OPERATOR_NAME = 'operator (lanyard CLI)';

/** A recorded actor's name as the pages show it: the operator's earlier, technical name read as today's. */
export const shownActorName = (name: string): string => (name === EARLIER_OPERATOR_NAME ? OPERATOR.name : name);

export const actorOf = (d: DeveloperAccount): Actor => ({ id: d.id, name: d.displayName, twoStep: !!d.totpSecret });
