import cluster, { type Worker } from 'node:cluster';
import { argon2Hash, argon2Verify } from '../accounts/credential-hasher.js';
import { LimiterBusyError, type Slots } from '../accounts/limiter.js';
import { type HashReply, type HashRequest, isHashRequest } from './hashing-protocol.js';

/**
 * The primary hashes and checks credentials for every worker, within one set of slots for the whole machine
 * (src/cluster/sizing.ts), so that however the sign-ins fall on the workers, at most that many hashes run at
 * once and a core stays free for signing tokens.
 *
 * The hashing is the primary's, not the workers', because its event loop is idle: when a hash finishes, the
 * next one in the queue starts at once. A worker's loop is busy serving requests, and a slot held until it
 * got round to a finished hash (and then to the next grant) stood idle for milliseconds each time, about a
 * fifth of the machine's sign-in rate (issue 11). Work queued by a worker that has since died is skipped.
 * Returns a function that stops serving.
 */
export function hashForWorkers(slots: Slots): () => void {
  const reply = (worker: Worker, message: HashReply): void => {
    if (!worker.isConnected()) return;
    try {
      worker.send(message);
    } catch {
      // The worker is going: nobody is left to answer.
    }
  };
  const work = async (worker: Worker, m: HashRequest): Promise<Omit<HashReply, 'lanyard' | 'id'> | undefined> => {
    if (!worker.isConnected()) return undefined;
    return m.op === 'hash' ? { hash: await argon2Hash(m.plain) } : { verified: await argon2Verify(m.hash, m.plain) };
  };
  const onMessage = (worker: Worker, m: unknown) => {
    if (!isHashRequest(m)) return;
    const wait = m.maxWaitMs === undefined ? {} : { maxWaitMs: m.maxWaitMs };
    slots.run(() => work(worker, m), wait).then((answer) => {
      if (answer) reply(worker, { lanyard: 'argon2', id: m.id, ...answer } as HashReply);
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
