import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../build.js';
import { treeRss } from '../rss.js';
import { generateRoster } from '../roster/generate.js';

/**
 * A district's nightly roster sync, as its operator runs it: the built `lanyard roster import FOLDER --json`
 * against the server's store (a OneRoster 1.1 export from bench/roster/generate.ts, the same bytes at every
 * run), timed, its resident size sampled; then the same files again, which must change and write nothing.
 */

export interface RosterSize { users: number; classes: number; enrollments: number; schools: number }

export interface ImportRun {
  seconds: number;
  /** The import process's largest resident size, sampled every 100 ms. */
  peakRssMiB: number;
  applied: boolean;
  counts: Record<string, { added: number; changed: number; unchanged: number; leaving: number }>;
  errors: number;
}

export interface RosterImportResult {
  size: RosterSize;
  first: ImportRun;
  again: ImportRun;
}

/** The generated export's folder, made once per run (the same seed and size: the same bytes). */
export async function rosterFolder(dir: string, size: RosterSize): Promise<string> {
  const folder = join(dir, `roster-${size.users}-${size.classes}-${size.enrollments}`);
  if (!existsSync(join(folder, 'manifest.csv'))) await generateRoster(folder, { ...size, seed: 1 });
  return folder;
}

/** One `lanyard roster import`, timed and sampled; throws with its output when it fails. */
async function importOnce(folder: string, env: NodeJS.ProcessEnv): Promise<ImportRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [join(REPO, 'dist/src/cli.js'), 'roster', 'import', folder, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => { out += b; });
  child.stderr.on('data', (b: Buffer) => { err += b; if (err.length > 20_000) err = err.slice(-10_000); });
  let peak = 0;
  const sample = async () => { if (child.pid) peak = Math.max(peak, (await treeRss(child.pid)).mib); };
  const timer = setInterval(() => { void sample().catch(() => {}); }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(timer);
  const seconds = (Date.now() - started) / 1000;
  let report: { applied: boolean; counts: ImportRun['counts']; errors: unknown[] };
  try {
    report = JSON.parse(out) as typeof report;
  } catch {
    throw new Error(`roster import exited ${code} without its JSON report: ${err.slice(-2000)}`);
  }
  if (code !== 0 || report.errors.length) throw new Error(`roster import exited ${code}: ${JSON.stringify(report.errors.slice(0, 3))} ${err.slice(-1000)}`);
  return { seconds, peakRssMiB: peak, applied: report.applied, counts: report.counts, errors: report.errors.length };
}

/** The import into the store of `env` (LANYARD_STORE and its keys), then the same files again. */
export async function measureRosterImport(folder: string, size: RosterSize, env: NodeJS.ProcessEnv): Promise<RosterImportResult> {
  const first = await importOnce(folder, env);
  const again = await importOnce(folder, env);
  return { size, first, again };
}
