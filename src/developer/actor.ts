import type { DeveloperAccount } from '../../adapters/store.js';

/** Who is making a change, for the history: a developer, or the operator at the command line. */
export interface Actor {
  id: string;
  name: string;
}

export const OPERATOR: Actor = { id: 'operator', name: 'operator (lanyard CLI)' };

export const actorOf = (d: DeveloperAccount): Actor => ({ id: d.id, name: d.displayName });
