import cluster, { type Worker } from 'node:cluster';
import { argon2Hash, argon2Verify } from '../accounts/credential-hasher.js';
import { type Limiter, LimiterBusyError } from '../accounts/limiter.js';
import { isLanyardMessage, sendToWorker } from '../process/ipc-message.js';
import { type HashReply, type HashRequest, isHashRequest } from './hashing-protocol.js';

type Answer = { hash: string } | { verified: boolean };

/**
 * The primary hashes and checks credentials for every worker, within one set of slots for the whole machine
 * (src/process/sizing.ts), so that however the sign-ins fall on the workers, at most that many hashes run at
 * once and a core stays free for signing tokens.
 *
 * The hashing is the primary's, not the workers', because its event loop has little else to do: when a hash
 * finishes, the next one in the queue starts at once. A worker's loop is busy serving requests, and a slot
 * held until it got round to a finished hash (and then to the next grant) stood idle for milliseconds each
 * time: sign-in reached 0.75–0.78 of the argon2 rate that way (docs/performance.md). Work queued by a worker that has
 * since gone is skipped, and teaches the slots nothing. Returns a function that stops serving.
 */
export function hashForWorkers(slots: Limiter): () => void {
  const reply = (worker: Worker, message: HashReply): void => sendToWorker(worker, message);
  const answer = async (worker: Worker, m: HashRequest): Promise<Answer | undefined> => {
    const release = await slots.acquire(m.maxWaitMs === undefined ? {} : { maxWaitMs: m.maxWaitMs });
    if (!worker.isConnected()) {
      release({ learn: false });
      return undefined;
    }
    try {
      return m.op === 'hash' ? { hash: await argon2Hash(m.plain) } : { verified: await argon2Verify(m.hash, m.plain) };
    } finally {
      release();
    }
  };
  const onMessage = (worker: Worker, m: unknown) => {
    if (!isHashRequest(m)) {
      // A request this primary cannot read still gets an answer, so that nobody waits for ever.
      if (isLanyardMessage(m, 'argon2?') && typeof m.id === 'number') reply(worker, { lanyard: 'argon2', id: m.id, failed: 'malformed request' });
      return;
    }
    answer(worker, m).then((a) => {
      if (a) reply(worker, { lanyard: 'argon2', id: m.id, ...a });
    }, (err: unknown) => {
      const outcome = err instanceof LimiterBusyError ? { busy: err.retryAfterSeconds } : { failed: err instanceof Error ? err.message : String(err) };
      reply(worker, { lanyard: 'argon2', id: m.id, ...outcome });
    });
  };
  cluster.on('message', onMessage);
  return () => {
    cluster.off('message', onMessage);
  };
}
