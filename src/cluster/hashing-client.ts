import { LimiterBusyError, type Slots, type WaitOptions } from '../accounts/limiter.js';
import { StoreUnavailableError } from '../errors.js';
import { isSlotReply, type SlotReply } from './hashing-protocol.js';

/** The worker's IPC channel to the primary: `process` in a worker. */
export interface Channel {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  once(event: 'disconnect', listener: () => void): unknown;
  send?(message: unknown): boolean;
  readonly connected: boolean;
}

/**
 * A worker's argon2 slots, held by the primary (hashing-broker.ts): each task asks for one, runs, and gives
 * it back. When the primary is gone the worker is stopping (src/cluster/worker.ts); tasks still waiting
 * are refused as unavailable (503), not left hanging.
 */
export class RemoteSlots implements Slots {
  #next = 0;
  readonly #waiting = new Map<number, (reply: SlotReply | undefined) => void>();

  constructor(private readonly channel: Channel = process) {
    channel.on('message', (m: unknown) => {
      if (!isSlotReply(m)) return;
      this.#waiting.get(m.id)?.(m);
      this.#waiting.delete(m.id);
    });
    channel.once('disconnect', () => {
      for (const settle of this.#waiting.values()) settle(undefined);
      this.#waiting.clear();
    });
  }

  async run<T>(task: () => Promise<T>, o: WaitOptions = {}): Promise<T> {
    const id = (this.#next += 1);
    const reply = await new Promise<SlotReply | undefined>((resolve) => {
      if (!this.channel.connected || !this.channel.send) return resolve(undefined);
      this.#waiting.set(id, resolve);
      this.channel.send({ lanyard: 'argon2?', id, ...(o.maxWaitMs !== undefined ? { maxWaitMs: o.maxWaitMs } : {}) });
    });
    if (!reply) throw new StoreUnavailableError(new Error('the primary process is gone: this worker is stopping'));
    if ('busy' in reply) throw new LimiterBusyError(reply.busy);
    try {
      return await task();
    } finally {
      if (this.channel.connected) this.channel.send?.({ lanyard: 'argon2!', id });
    }
  }
}
