/** Everything that depends on time takes a Clock, so tests can move time (docs/architecture.md → Rules of thumb). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; used by tests for lifetimes and key rotation. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | number = Date.now()) {
    this.#ms = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
  set(to: Date): void {
    this.#ms = to.getTime();
  }
}

export const epochSeconds = (clock: Clock): number => Math.floor(clock.now().getTime() / 1000);

/** The instant `days` days before now (ISO 8601): where a retention period of that many days begins. */
export const daysAgo = (clock: Clock, days: number): string => new Date(clock.now().getTime() - days * 86_400_000).toISOString();
