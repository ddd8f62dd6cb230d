import type { Figure } from './load.js';
import type { LogScan } from './log-scan.js';
import type { Machine } from './machine.js';
import type { MetricsSummary } from './metrics-scraper.js';
import type { MachineLimits } from './machine-limits.js';
import type { PeakResult } from './scenarios/morning-peak.js';
import type { RosterImportResult } from './scenarios/roster-import.js';
import type { SoakResult } from './scenarios/soak.js';
import type { SignInFigure } from './scenarios/sign-in.js';
import type { StormResult } from './scenarios/storm.js';
import type { TargetKey } from './target.js';

/** Everything measured on one server. Absent figures were not measured (bare has no sign-in screens). */
export interface TargetResults {
  label: string;
  /** Why this server was not measured (e.g. redis-server is not installed). */
  skipped?: string;
  startupSeconds?: number;
  /** Share of the machine's CPU used by processes other than the bench's and its servers' during the scenarios. */
  othersCpuPercent?: number;
  /**
   * What the other servers, idle, spent while this one was measured (all its phases), in % of one core:
   * every server is running throughout, measured one at a time.
   */
  idleServersCpuPercent?: number;
  exchange?: Figure;
  refresh?: Figure;
  discovery?: Figure;
  jwks?: Figure;
  signIn?: SignInFigure;
  storm?: StormResult;
  morningPeak?: PeakResult;
  /** `lanyard roster import` of a generated district into this server's store, then the same files again. */
  rosterImport?: RosterImportResult;
  /** Lanyard's processes (the server and its workers) and their resident size, at the end of its scenarios. */
  processes?: { count: number; rssMiB: number; eachMiB: number[] };
  /** Lanyard's metrics, scraped every 15 s during the run; the last scrape's token and request counts. */
  metrics?: MetricsSummary;
  /** Lanyard's own log of the run, and the requests the bench sent it. */
  log?: LogScan & { requestsSent: number };
}

/** One scenario measured on one server: when (seconds from the run's start) and for how long. */
export interface Phase {
  scenario: string;
  target: TargetKey;
  startSeconds: number;
  seconds: number;
  /** How long the bench waited, before the phase, for the other servers to be quiet (cpu.ts waitQuiet). */
  settledSeconds: number;
  /** The CPU the other servers (idle) used meanwhile, in ms; absent off Linux or with no other server. */
  idleServersCpuMs?: number;
}

export interface Ratio {
  name: string;
  /** e.g. '≥ 0.85' */
  goal: string;
  value: number | undefined;
  met: boolean | undefined;
}

export interface Results {
  tool: 'lanyard-bench';
  version: 1;
  startedAt: string;
  finishedAt: string;
  seconds: number;
  profile: string;
  machine: Machine & { busyBeforePercent?: number | undefined };
  limits?: MachineLimits & {
    argon2ConcurrencySource: string;
    /** A document's bytes from plain node:http in as many processes as Lanyard's workers (bytes-ceiling.ts). */
    documentCeiling?: { processes: number; figure: Figure };
  };
  settings: {
    workers: number;
    pupils: number;
    staff: number;
    lanyardEnv: Record<string, string>;
    redis?: string;
    notes: string[];
  };
  targets: Partial<Record<TargetKey, TargetResults>>;
  soak?: SoakResult & { store: string };
  ratios: Ratio[];
  /** The scenarios' measurements in the order they ran: each scenario on every server back to back. */
  phases: Phase[];
  warnings: string[];
  /** Every process group the bench started, and those still alive at the end (should be none). */
  processes: { name: string; pid: number }[];
  leftovers: { name: string; pid: number }[];
}
