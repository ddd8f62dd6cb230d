import cluster, { type Worker } from 'node:cluster';
import { setTimeout as sleep } from 'node:timers/promises';
import { DRAIN_MS, SHUTDOWN_GRACE_MS } from '../http/graceful-close.js';
import { isLanyardMessage, sendToWorker } from '../process/ipc-message.js';

type Log = { info(o: object, m: string): void; warn(o: object, m: string): void; error(o: object, m: string): void };

/** What a worker says to the primary (src/cluster/worker.ts) once it listens. */
export const READY = { lanyard: 'ready' } as const;
const isReady = (m: unknown) => isLanyardMessage(m, READY.lanyard);
/** What the primary tells a worker it is replacing (a reload): drain, then stop. */
export const RETIRE = { lanyard: 'retire' } as const;

/** A worker that stopped while starting: the same problem would stop every worker (its error is above). */
export class WorkerStartupError extends Error {
  constructor(readonly exitCode: number) {
    super(`a worker process stopped while starting (exit code ${exitCode})`);
  }
}

/** A restarted worker that keeps failing this many times in a row means something is wrong for good. */
const MAX_FAILED_RESTARTS = 5;
const RESTART_DELAY_MS = 1_000;

/**
 * The worker processes of `lanyard serve` (LANYARD_WORKERS > 1), forked with node:cluster: they share the
 * listening port and the store. `start` resolves once every worker listens. A worker that dies afterwards is
 * replaced (after a pause that grows while replacements keep failing); `roll` replaces them all one at a
 * time (SIGHUP: src/cluster/reload.ts), and `stop` asks each to finish its requests (SIGTERM → graceful
 * close), killing any still running after the grace period.
 */
export class WorkerPool {
  #stopping = false;
  #failedRestarts = 0;
  readonly #live = new Set<Worker>();
  /** Listening: what a reload replaces (not one still starting). */
  readonly #ready = new Set<Worker>();
  /** Asked to stop (stop, roll), with the wait for their exit: their exit is not a death to replace. */
  readonly #retiring = new Map<Worker, Promise<void>>();
  /** Being replaced by roll(): if one dies first, the worker starting in its place is its replacement. */
  readonly #superseded = new Set<Worker>();

  constructor(private readonly o: { count: number; env: Record<string, string>; log: Log; onGiveUp: (err: Error) => void }) {}

  get pids(): number[] {
    return [...this.#live].map((w) => w.process.pid!).filter(Boolean);
  }

  get stopping(): boolean {
    return this.#stopping;
  }

  async start(): Promise<void> {
    const started = await Promise.allSettled(Array.from({ length: this.o.count }, () => this.#fork()));
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await this.stop();
      throw failed.reason;
    }
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all([...this.#live].map((worker) => this.#retire(worker, 'stop')));
  }

  /**
   * Replaces every listening worker, one at a time, so that the port is never without one: the new worker
   * listens before the one it replaces is told to drain its connections and stop (src/cluster/worker.ts).
   * Rejects with WorkerStartupError, and replaces no more, when a new worker stops while starting (the
   * workers still running carry on). Resolves with how many were replaced.
   */
  async roll(): Promise<number> {
    let replaced = 0;
    for (const old of [...this.#ready]) {
      if (this.#stopping) break;
      if (!this.#live.has(old)) continue; // it died meanwhile, and was replaced as usual
      this.#superseded.add(old);
      try {
        await this.#fork();
      } catch (err) {
        this.#superseded.delete(old);
        if (old.isDead() && !this.#stopping) void this.#replace(old, old.process.exitCode, old.process.signalCode);
        throw err;
      }
      await this.#retire(old, 'replace');
      this.#superseded.delete(old);
      replaced += 1;
    }
    return replaced;
  }

  /**
   * Asks a worker to stop (SIGTERM) or, replacing it, to drain first (RETIRE); kills it if it is still
   * there after the grace period. Asked twice, it signals once: a second SIGTERM would cut a draining worker.
   */
  #retire(worker: Worker, how: 'stop' | 'replace'): Promise<void> {
    const already = this.#retiring.get(worker);
    if (already) return already;
    const retired = (async () => {
      const exited = new Promise<void>((resolve) => {
        if (worker.isDead()) resolve();
        else worker.once('exit', () => resolve());
      });
      const terminate = () => worker.process.kill('SIGTERM');
      if (how === 'replace') sendToWorker(worker, RETIRE, (err) => { if (err) terminate(); }); // gone: SIGTERM instead
      else terminate();
      const timer = setTimeout(() => worker.process.kill('SIGKILL'), DRAIN_MS + SHUTDOWN_GRACE_MS + 5_000);
      await exited;
      clearTimeout(timer);
      this.#retiring.delete(worker);
    })();
    this.#retiring.set(worker, retired);
    return retired;
  }

  /** Forks one worker; resolves when it listens, rejects if it exits first. */
  #fork(): Promise<Worker> {
    const worker = cluster.fork(this.o.env);
    this.#live.add(worker);
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: unknown) => {
        if (ready || !isReady(message)) return;
        ready = true;
        this.#failedRestarts = 0;
        this.#ready.add(worker);
        resolve(worker);
      });
      worker.once('exit', (code, signal) => {
        this.#live.delete(worker);
        this.#ready.delete(worker);
        if (!ready) reject(new WorkerStartupError(code ?? 1));
        else if (this.#stopping || this.#retiring.has(worker)) return;
        else if (this.#superseded.has(worker)) {
          this.o.log.warn({ event: 'worker.exited', pid: worker.process.pid, code, signal }, 'a worker being replaced stopped first: the one starting takes its place');
        } else void this.#replace(worker, code, signal);
      });
    });
  }

  async #replace(dead: Worker, code: number | null, signal: string | null): Promise<void> {
    this.o.log.warn({ event: 'worker.exited', pid: dead.process.pid, code, signal }, 'a worker process stopped: starting another');
    for (;;) {
      await sleep(RESTART_DELAY_MS * 2 ** Math.min(this.#failedRestarts, 5));
      if (this.#stopping) return;
      try {
        const worker = await this.#fork();
        this.o.log.info({ event: 'worker.restarted', pid: worker.process.pid }, 'worker process replaced');
        return;
      } catch (err) {
        this.#failedRestarts += 1;
        this.o.log.error({ event: 'worker.restart_failed', attempts: this.#failedRestarts, err }, 'a replacement worker failed to start');
        if (this.#failedRestarts >= MAX_FAILED_RESTARTS) {
          this.o.onGiveUp(err as Error);
          return;
        }
      }
    }
  }
}
