/**
 * Lanyard's own messages on the cluster's IPC channel (workers ↔ primary) are objects tagged with a
 * `lanyard` field, which tells them apart from each other and from anything else on the channel.
 */
export const isLanyardMessage = (m: unknown, tag: string): m is Record<string, unknown> =>
  typeof m === 'object' && m !== null && (m as { lanyard?: unknown }).lanyard === tag;

/** The primary's view of a worker: what sendToWorker needs of node:cluster's Worker. */
interface Recipient {
  isConnected(): boolean;
  send(message: unknown, handle: undefined, options: undefined, callback: (err: Error | null) => void): boolean;
}

/**
 * Primary → worker: only while the worker is connected, and always with a callback, so that a write to a
 * worker that has just died is handed to `done` instead of becoming an 'error' event nobody listens to
 * (which would stop the primary).
 */
export function sendToWorker(worker: Recipient, message: object, done: (err: Error | null) => void = () => {}): void {
  if (!worker.isConnected()) return done(new Error('the worker is gone'));
  worker.send(message, undefined, undefined, done);
}

/** A worker's channel to the primary: `process` in a worker (a stand-in in tests). */
export interface PrimaryChannel {
  readonly connected: boolean;
  send?(message: unknown, handle: undefined, options: undefined, callback: (err: Error | null) => void): boolean;
}

/** Worker → primary, the same way: `done` gets the error when the primary is gone or the write fails. */
export function sendToPrimary(message: object, done: (err: Error | null) => void = () => {}, via: PrimaryChannel = process): void {
  if (via.connected && via.send) via.send(message, undefined, undefined, done);
  else done(new Error('the primary is gone'));
}
