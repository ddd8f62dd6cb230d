import type { Hasher } from '../accounts/credential-hasher.js';
import { LimiterBusyError, type WaitOptions } from '../accounts/limiter.js';
import { StoreUnavailableError } from '../errors.js';
import { type HashReply, type HashRequest, isHashReply } from './hashing-protocol.js';
import { type PrimaryChannel, sendToPrimary } from '../process/ipc-message.js';
import { NoAnswer, PendingReplies } from '../process/pending-replies.js';

/** The worker's IPC channel to the primary: `process` in a worker. */
export interface Channel extends PrimaryChannel {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  once(event: 'disconnect', listener: () => void): unknown;
}

type Job = { op: 'hash' } | { op: 'verify'; hash: string };

const PRIMARY_GONE = 'the primary process is gone: this worker is stopping';

/**
 * A worker's credentials, hashed and checked by the primary (hashing-broker.ts) within the machine's argon2
 * slots. When the primary is gone the worker is stopping (src/cluster/worker.ts); what is still waiting is
 * refused as unavailable (503), not left hanging.
 */
export class RemoteHasher implements Hasher {
  readonly #asked = new PendingReplies<HashReply>();

  constructor(private readonly channel: Channel = process) {
    channel.on('message', (m: unknown) => { if (isHashReply(m)) this.#asked.settle(m.id, m); });
    channel.once('disconnect', () => this.#asked.settleAll(new NoAnswer(PRIMARY_GONE)));
  }

  async hash(plain: string): Promise<string> {
    const reply = await this.#ask({ op: 'hash' }, plain, {});
    if (!('hash' in reply)) throw new Error('the primary answered a hash request with no hash');
    return reply.hash;
  }

  async verify(hash: string, plain: string, o: WaitOptions = {}): Promise<boolean> {
    const reply = await this.#ask({ op: 'verify', hash }, plain, o);
    if (!('verified' in reply)) throw new Error('the primary answered a check with no answer');
    return reply.verified;
  }

  /** The primary's answer; its refusals as the errors a local Limiter would throw. */
  async #ask(job: Job, plain: string, o: WaitOptions): Promise<HashReply> {
    const { id, outcome } = this.#asked.open(undefined);
    const request: HashRequest = { lanyard: 'argon2?', id, plain, ...job, ...(o.maxWaitMs !== undefined ? { maxWaitMs: o.maxWaitMs } : {}) };
    sendToPrimary(request, (err) => { if (err) this.#asked.settle(id, new NoAnswer(PRIMARY_GONE)); }, this.channel);
    const reply = await outcome;
    if (reply instanceof NoAnswer) throw new StoreUnavailableError(new Error(reply.reason));
    if ('busy' in reply) throw new LimiterBusyError(reply.busy);
    if ('failed' in reply) throw new Error(`hashing failed in the primary: ${reply.failed}`);
    return reply;
  }
}
