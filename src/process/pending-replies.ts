/** Why a request got no answer: its time ran out, it could not be sent, or whoever was to answer is gone. */
export class NoAnswer {
  constructor(readonly reason: string) {}
}

/**
 * Requests sent between Lanyard's processes (ipc-message.ts), waiting for their answers by id: a worker's
 * credential checks and metrics scrapes asked of the primary, the primary's scrapes of each worker. Each is
 * settled once, by its answer, by its timeout or by the end of whoever was asked (`asked`, when a side asks
 * several); anything for it after that is dropped.
 */
export class PendingReplies<T, Asked = undefined> {
  #next = 0;
  readonly #waiting = new Map<number, { asked: Asked; settle: (outcome: T | NoAnswer) => void }>();

  /** A new id and its outcome: the answer, or NoAnswer (after `timeout.ms`, with `timeout.reason`, if given). */
  open(asked: Asked, timeout?: { ms: number; reason: string }): { id: number; outcome: Promise<T | NoAnswer> } {
    const id = this.#next++;
    const outcome = new Promise<T | NoAnswer>((resolve) => {
      const timer = timeout && setTimeout(() => this.settle(id, new NoAnswer(timeout.reason)), timeout.ms);
      timer?.unref(); // a request nobody answers never keeps a process alive
      this.#waiting.set(id, {
        asked,
        settle: (o) => {
          clearTimeout(timer);
          resolve(o);
        },
      });
    });
    return { id, outcome };
  }

  /** Settles `id` with its answer (or NoAnswer), if it is still waited for. */
  settle(id: number, outcome: T | NoAnswer): void {
    const waiting = this.#waiting.get(id);
    if (!waiting) return;
    this.#waiting.delete(id);
    waiting.settle(outcome);
  }

  /** Settles every request asked of `asked` (every one, when omitted) with `outcome`. */
  settleAll(outcome: T | NoAnswer, asked?: Asked): void {
    for (const [id, waiting] of this.#waiting) if (asked === undefined || waiting.asked === asked) this.settle(id, outcome);
  }
}
