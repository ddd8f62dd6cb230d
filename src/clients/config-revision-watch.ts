import type { ConfigRevision, Store, StoredConfigRevision } from '../../adapters/store.js';
import { describeRevision, type RevisionOutcome, sameRevision, shortHash, writesClients } from './config-revision.js';
import { RUNNING_REVISION_TTL_MS } from './config-revision-gate.js';

/** What an instance knows of the configuration revisions on its store (docs/operations.md → Rolling configuration changes). */
export interface RevisionReport {
  /** The revision of this instance's file. */
  mine: ConfigRevision;
  /** The revision whose clients the store holds. */
  stored: StoredConfigRevision | undefined;
  /** The revisions the running instances run, each with how many run it; newest first. */
  running: (ConfigRevision & { instances: number })[];
  /** Instances on this store run different revisions, or this one's is not the store's. */
  mismatch: boolean;
  /** What differs, in a sentence (without instance names: /readyz shows it). */
  problem?: string | undefined;
}

type Log = { debug(o: object, m: string): void; info(o: object, m: string): void; warn(o: object, m: string): void };

export interface WatchOptions {
  store: Store;
  mine: ConfigRevision;
  /** This instance, reported as running `mine` while it runs. */
  instance: string;
  /** Writes this instance's clients when its revision may take over (the gate decides again, under its lock). */
  adopt(): Promise<RevisionOutcome>;
  /** How this instance's startup went with the store's revision, when it wrote the file (logged once ready). */
  outcome?: RevisionOutcome | undefined;
}

/**
 * Keeps this instance's report of its revision alive in the store, tells the revisions apart for /readyz and
 * the metrics, logs a warning line when instances disagree (and a line when they agree again), and takes
 * over with this instance's clients when its file has the store's revision number but other contents and
 * no running instance runs the store's any more (the last instance of the old file has stopped).
 */
export class ConfigRevisionWatch {
  readonly #o: WatchOptions;
  #timer: NodeJS.Timeout | undefined;
  #log: Log | undefined;
  #logged: string | undefined;

  constructor(o: WatchOptions) {
    this.#o = o;
  }

  get mine(): ConfigRevision { return this.#o.mine; }

  /** The instance this process reports as (a cluster primary hands it to its workers). */
  get instance(): string { return this.#o.instance; }

  /** The revisions now, read from the store (no write). */
  async report(): Promise<RevisionReport> {
    const { store, mine } = this.#o;
    const [stored, reports] = await Promise.all([store.getConfigRevision(), store.listRunningRevisions()]);
    const running: RevisionReport['running'] = [];
    for (const r of reports) {
      const same = running.find((x) => sameRevision(x, r));
      if (same) same.instances += 1;
      else running.push({ version: r.version, hash: r.hash, instances: 1 });
    }
    running.sort((a, b) => b.version - a.version || (a.hash < b.hash ? -1 : 1));
    const problem = problemOf(mine, stored, running);
    return { mine, stored, running, mismatch: problem !== undefined, problem };
  }

  /** The revisions as /readyz shows them: short hashes, and no instance names. */
  async readiness(): Promise<object> {
    const r = await this.report();
    const view = (x: ConfigRevision) => ({ revision: x.version, hash: shortHash(x.hash) });
    return {
      ...view(r.mine),
      store: r.stored ? view(r.stored) : null,
      running: r.running.map((x) => ({ ...view(x), instances: x.instances })),
      mismatch: r.mismatch,
      ...(r.problem ? { problem: r.problem } : {}),
    };
  }

  /** Reports this instance now, then every third of the report's lifetime; logs to `log`. */
  async start(log: Log, everyMs = RUNNING_REVISION_TTL_MS / 3): Promise<void> {
    this.#log = log;
    const { outcome } = this.#o;
    if (outcome) this.#outcome(outcome);
    await this.tick().catch(() => {});
    this.#timer = setInterval(() => void this.tick().catch(() => {}), everyMs);
    this.#timer.unref();
  }

  /** One round: renew this instance's report, take over if its revision may, and log what changed. */
  async tick(): Promise<RevisionReport> {
    const { store, instance, mine } = this.#o;
    try {
      await store.reportRunningRevision(instance, mine, RUNNING_REVISION_TTL_MS);
      let report = await this.report();
      const { stored } = report;
      if (stored && stored.version === mine.version && stored.hash !== mine.hash
        && !report.running.some((r) => sameRevision(r, stored))) {
        this.#outcome(await this.#o.adopt());
        report = await this.report();
      }
      this.#note(report);
      return report;
    } catch (err) {
      this.#log?.warn({ event: 'config.revision_check_failed', err }, 'the configuration revisions could not be checked in the store; trying again later');
      throw err;
    }
  }

  /** Stops reporting, and removes this instance's report so that it no longer counts as running. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#o.store.forgetRunningRevision(this.#o.instance).catch(() => {});
  }

  /** What became of this instance's clients: a warning when they were not written, a debug line when nothing changed. */
  #outcome(outcome: RevisionOutcome): void {
    const { mine } = this.#o;
    const line = { event: 'config.revision', outcome, revision: mine.version, hash: shortHash(mine.hash) };
    const msg = OUTCOMES[outcome](describeRevision(mine));
    if (!writesClients(outcome)) this.#log?.warn(line, msg);
    else if (outcome === 'newer' || outcome === 'adopted') this.#log?.info(line, msg);
    else this.#log?.debug(line, msg);
  }

  #note(r: RevisionReport): void {
    if (r.problem === this.#logged) return;
    const fields = {
      revision: r.mine.version,
      hash: shortHash(r.mine.hash),
      store: r.stored && { revision: r.stored.version, hash: shortHash(r.stored.hash), writtenAt: r.stored.writtenAt, writtenBy: r.stored.writtenBy },
      running: r.running.map((x) => ({ revision: x.version, hash: shortHash(x.hash), instances: x.instances })),
    };
    if (r.problem) this.#log?.warn({ event: 'config.revision_mismatch', ...fields }, `⚠️  Configuration revisions differ: ${r.problem} (docs/operations.md → Rolling configuration changes)`);
    else if (this.#logged !== undefined) this.#log?.info({ event: 'config.revision_agreed', ...fields }, `every instance runs configuration revision ${describeRevision(r.mine)}`);
    this.#logged = r.problem;
  }
}

const OUTCOMES: Record<RevisionOutcome, (r: string) => string> = {
  first: (r) => `configuration revision ${r}: its clients written into the store (it held none)`,
  newer: (r) => `configuration revision ${r}: newer than the store's, its clients written`,
  same: (r) => `configuration revision ${r}: the store's`,
  adopted: (r) => `configuration revision ${r}: same number as the store's, other contents, and no instance runs the store's any more: its clients written`,
  conflict: (r) => `configuration revision ${r}: same number as the store's but other contents, which another instance runs: its clients NOT written`,
  older: (r) => `configuration revision ${r}: older than the store's: its clients NOT written`,
};

function problemOf(mine: ConfigRevision, stored: StoredConfigRevision | undefined, running: RevisionReport['running']): string | undefined {
  if (!stored) return 'the store holds no revision of the configuration file\'s clients';
  const here = describeRevision(mine);
  const there = describeRevision(stored);
  if (mine.version < stored.version) return `this instance runs revision ${here}, older than the store's ${there}: the store's clients are served, not this file's`;
  if (mine.version > stored.version) return `this instance runs revision ${here}, but the store holds the older ${there}`;
  if (mine.hash !== stored.hash) return `this instance's file and the store's differ under one revision number, ${here} here and ${there} in the store: bump "revision" in the file that should win`;
  if (running.length > 1) return `instances on this store run ${running.length} revisions: ${running.map((r) => `${describeRevision(r)} ×${r.instances}`).join(', ')}`;
  return undefined;
}
