import cluster, { type Worker } from 'node:cluster';
import { Limiter, LimiterBusyError } from '../accounts/limiter.js';
import { isSlotRelease, isSlotRequest, type SlotReply } from './hashing-protocol.js';

/**
 * The primary's side of argon2 slots: one Limiter for the whole machine (src/cluster/sizing.ts), so that
 * however the sign-ins fall on the workers, at most that many hashes run at once and a core stays free
 * for signing tokens. A worker that dies gives its slots back. Returns a function that stops brokering.
 */
export function brokerHashingSlots(limiter: Limiter): () => void {
  const held = new Map<Worker, Map<number, () => void>>();
  const reply = (worker: Worker, message: SlotReply): boolean => {
    if (!worker.isConnected()) return false;
    try {
      worker.send(message);
      return true;
    } catch {
      return false;
    }
  };
  const onMessage = (worker: Worker, m: unknown) => {
    if (isSlotRequest(m)) {
      limiter.acquire(m.maxWaitMs === undefined ? {} : { maxWaitMs: m.maxWaitMs }).then((release) => {
        if (!reply(worker, { lanyard: 'argon2', id: m.id, granted: true })) return release();
        let mine = held.get(worker);
        if (!mine) held.set(worker, (mine = new Map()));
        mine.set(m.id, release);
      }, (err: unknown) => {
        reply(worker, { lanyard: 'argon2', id: m.id, busy: err instanceof LimiterBusyError ? err.retryAfterSeconds : 1 });
      });
    } else if (isSlotRelease(m)) {
      const mine = held.get(worker);
      mine?.get(m.id)?.();
      mine?.delete(m.id);
    }
  };
  const onExit = (worker: Worker) => {
    for (const release of held.get(worker)?.values() ?? []) release();
    held.delete(worker);
  };
  cluster.on('message', onMessage);
  cluster.on('exit', onExit);
  return () => {
    cluster.off('message', onMessage);
    cluster.off('exit', onExit);
  };
}
