import type { CredentialKind } from '../store.js';

/** The field of a user's credential in P:{directory}:credentials. */
export const credentialField = (userId: string, kind: string) => `${userId}:${kind}`;

/** Every credential kind, so that deleting a user removes each (the compiler asks for a new kind here). */
export const CREDENTIAL_KINDS = Object.keys({ password: true, emoji: true } satisfies Record<CredentialKind, true>) as CredentialKind[];
