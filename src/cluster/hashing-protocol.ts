import { isLanyardMessage } from './ipc-message.js';

/**
 * The messages between a worker and the primary about argon2 slots (hashing-client.ts, hashing-broker.ts):
 * the machine's slots are shared by every worker, so the primary hands them out.
 */

/** Worker → primary: a slot, please (refused when the wait would be longer than `maxWaitMs`). */
export interface SlotRequest { lanyard: 'argon2?'; id: number; maxWaitMs?: number }
/** Worker → primary: done with the slot. */
export interface SlotRelease { lanyard: 'argon2!'; id: number }
/** Primary → worker: the slot is yours, or come back after `busy` seconds. */
export type SlotReply = { lanyard: 'argon2'; id: number; granted: true } | { lanyard: 'argon2'; id: number; busy: number };

export const isSlotRequest = (m: unknown): m is SlotRequest =>
  isLanyardMessage(m, 'argon2?') && typeof m.id === 'number' && (m.maxWaitMs === undefined || typeof m.maxWaitMs === 'number');
export const isSlotRelease = (m: unknown): m is SlotRelease => isLanyardMessage(m, 'argon2!') && typeof m.id === 'number';
export const isSlotReply = (m: unknown): m is SlotReply => isLanyardMessage(m, 'argon2') && typeof m.id === 'number';
