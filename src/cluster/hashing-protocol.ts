import { isLanyardMessage } from '../process/ipc-message.js';

/**
 * The messages between a worker and the primary about credentials (hashing-client.ts, hashing-broker.ts):
 * the primary hashes and checks them for every worker, within the machine's argon2 slots.
 */

/** Worker → primary: hash `plain`, or check it against `hash` (refused when the wait would be longer than `maxWaitMs`). */
export type HashRequest = { lanyard: 'argon2?'; id: number; plain: string; maxWaitMs?: number } & ({ op: 'hash' } | { op: 'verify'; hash: string });

/** Primary → worker: the hash, the check's answer, come back after `busy` seconds, or why hashing failed. */
export type HashReply = { lanyard: 'argon2'; id: number } & ({ hash: string } | { verified: boolean } | { busy: number } | { failed: string });

export const isHashRequest = (m: unknown): m is HashRequest =>
  isLanyardMessage(m, 'argon2?') && typeof m.id === 'number' && typeof m.plain === 'string'
  && (m.maxWaitMs === undefined || typeof m.maxWaitMs === 'number')
  && (m.op === 'hash' || (m.op === 'verify' && typeof m.hash === 'string'));
export const isHashReply = (m: unknown): m is HashReply => isLanyardMessage(m, 'argon2') && typeof m.id === 'number';
