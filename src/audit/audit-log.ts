import type { AuditEvent, AuditTrail } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { newAuditId } from './audit-id.js';
import type { AuditInput, AuditRecorder } from './audit-recorder.js';

/** Where the recorder says that the store failed or that events were dropped (pino's; never an event's content). */
export interface AuditLogger {
  info(o: object, m: string): void;
  warn(o: object, m: string): void;
}

export interface AuditLogOptions {
  store: Pick<AuditTrail, 'appendAudit'>;
  clock: Clock;
  log: AuditLogger;
  /** false: nothing is recorded (`audit.enabled`, for the bench). Default true. */
  enabled?: boolean | undefined;
  /** A batch waits at most this long (ms) before it is written. */
  flushEveryMs?: number | undefined;
  /** A batch this large is written at once. */
  batchSize?: number | undefined;
  /** The most events held while the store fails; past it new ones are dropped (and counted). */
  mostKept?: number | undefined;
}

export const AUDIT_LOG_DEFAULTS = { flushEveryMs: 250, batchSize: 200, mostKept: 10_000 } as const;
/** The longest wait before the store is tried again after failures (the waits double from flushEveryMs). */
const MOST_RETRY_MS = 10_000;
/** While the store keeps failing, one log line per this many failed writes (about every few minutes). */
const LOG_EVERY_FAILURES = 20;

/**
 * The audit recorder of a process (src/audit/audit-recorder.ts; docs/storage.md → The audit trail). `record`
 * adds the event's id and time and queues it, never waiting and never throwing; the queue is written with
 * appendAudit every `flushEveryMs` or as soon as `batchSize` wait, one write at a time, always from a timer
 * (never on the request's own path). When the store fails, the batch goes back to the front, the failure is
 * logged, and the store is tried again after waits that double up to 10 s; at most `mostKept` events are held,
 * and those past it are dropped and counted (`stats`, the metrics' lanyard_audit_events_dropped_total).
 * `close` (the one shutdown routine, src/startup/shutdown.ts) writes what waits and records nothing more.
 */
export class AuditLog implements AuditRecorder {
  readonly #store: Pick<AuditTrail, 'appendAudit'>;
  readonly #clock: Clock;
  #log: AuditLogger;
  readonly #enabled: boolean;
  readonly #flushEveryMs: number;
  readonly #batchSize: number;
  readonly #mostKept: number;
  #waiting: AuditEvent[] = [];
  /** Events of the write under way (they count against mostKept). */
  #inFlight = 0;
  #writing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires (performance.now()). */
  #due = 0;
  /** Writes failed in a row. */
  #failures = 0;
  #dropped = 0;
  /** Dropped since the last write that went through (said once, when dropping starts). */
  #droppedLately = 0;
  #closed = false;

  constructor(o: AuditLogOptions) {
    this.#store = o.store;
    this.#clock = o.clock;
    this.#log = o.log;
    this.#enabled = o.enabled ?? true;
    this.#flushEveryMs = o.flushEveryMs ?? AUDIT_LOG_DEFAULTS.flushEveryMs;
    this.#batchSize = o.batchSize ?? AUDIT_LOG_DEFAULTS.batchSize;
    this.#mostKept = o.mostKept ?? AUDIT_LOG_DEFAULTS.mostKept;
  }

  /** Where failures are said from now on (buildApp gives the app's log, which the process's output takes). */
  logTo(log: AuditLogger): void {
    this.#log = log;
  }

  /** Events dropped so far, and those waiting to be written (the metrics read them when scraped). */
  stats(): { dropped: number; waiting: number } {
    return { dropped: this.#dropped, waiting: this.#waiting.length + this.#inFlight };
  }

  record(input: AuditInput): void {
    if (!this.#enabled) return;
    if (this.#closed || this.#waiting.length + this.#inFlight >= this.#mostKept) {
      this.#drop();
      return;
    }
    try {
      const now = this.#clock.now();
      this.#waiting.push({ ...input, id: newAuditId(now.getTime()), at: input.at ?? now.toISOString(), count: 1 });
    } catch {
      this.#drop(); // a clock that cannot tell the time: never the caller's problem
      return;
    }
    this.#schedule();
  }

  async flush(): Promise<void> {
    for (;;) {
      if (this.#writing) await this.#writing;
      if (!this.#waiting.length) return;
      await this.#writeNext();
      if (this.#failures) return; // kept for the next try
    }
  }

  /** Writes what waits; from then on, records nothing (each event is dropped and counted). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
    this.#clearTimer();
    const lost = this.#waiting.length;
    if (lost) this.#log.warn({ event: 'audit.events_lost', events: lost }, `${lost} audit event(s) could not be written before stopping`);
  }

  #drop(): void {
    this.#dropped += 1;
    this.#droppedLately += 1;
    if (this.#droppedLately === 1 && !this.#closed) {
      this.#log.warn({ event: 'audit.events_dropped', kept: this.#mostKept },
        `the audit trail cannot be written and ${this.#mostKept} events wait: new events are dropped (counted) until the store takes them`);
    }
  }

  /** Sets the timer of the next write, or brings it forward (a batch just filled up). */
  #schedule(): void {
    if (this.#writing || !this.#waiting.length || this.#closed) return;
    const delay = this.#failures ? Math.min(MOST_RETRY_MS, this.#flushEveryMs * 2 ** this.#failures)
      : this.#waiting.length >= this.#batchSize ? 0 : this.#flushEveryMs;
    const due = performance.now() + delay;
    if (this.#timer && this.#due <= due) return;
    this.#clearTimer();
    this.#due = due;
    this.#timer = setTimeout(() => void this.#writeNext(), delay);
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Writes the next batch (one write at a time); a failure puts it back in front. */
  #writeNext(): Promise<void> {
    this.#clearTimer();
    if (this.#writing || !this.#waiting.length) return this.#writing ?? Promise.resolve();
    const batch = this.#waiting.splice(0, this.#batchSize);
    this.#inFlight = batch.length;
    const writing = this.#store.appendAudit(batch).then(
      () => this.#wrote(),
      (err: unknown) => this.#failed(batch, err),
    ).finally(() => {
      this.#inFlight = 0;
      this.#writing = undefined;
      this.#schedule();
    });
    this.#writing = writing;
    return writing;
  }

  #wrote(): void {
    if (this.#failures || this.#droppedLately) {
      this.#log.info({ event: 'audit.written_again', dropped: this.#droppedLately }, 'the audit trail is written again');
    }
    this.#failures = 0;
    this.#droppedLately = 0;
  }

  #failed(batch: AuditEvent[], err: unknown): void {
    this.#waiting.unshift(...batch);
    this.#failures += 1;
    if (this.#failures % LOG_EVERY_FAILURES === 1) {
      this.#log.warn({ event: 'audit.write_failed', waiting: this.#waiting.length, failures: this.#failures, err: reason(err) },
        'the audit trail could not be written: its events are kept and written again');
    }
  }
}

/** What the store said (its message and code), never the command or the events it carried. */
const reason = (err: unknown): { message: string; code?: unknown } =>
  err instanceof Error ? { message: err.message, ...((err as { code?: unknown }).code !== undefined ? { code: (err as { code?: unknown }).code } : {}) } : { message: String(err) };
