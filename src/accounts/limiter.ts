/** At most `max` tasks at once; the rest wait in order. Keeps argon2 from starving token signing. */
export class Limiter {
  #running = 0;
  readonly #queue: (() => void)[] = [];
  constructor(readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.max) await new Promise<void>((resolve) => this.#queue.push(resolve));
    else this.#running += 1;
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter (#running unchanged). Freeing it and letting the waiter
      // take it back later leaves a gap in which a newcomer can take it too, running max + 1 tasks.
      const next = this.#queue.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
