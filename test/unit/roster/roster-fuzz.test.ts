import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { projectRoot } from '../../../src/package-files.js';
import { planRoster } from '../../../src/roster/plan/plan-roster.js';
import { readRoster } from '../../../src/roster/read/read-roster.js';
import { RosterReadError } from '../../../src/roster/read/errors.js';
import { pick, random } from '../../helpers/fuzz.js';
import { context, emptySnapshot } from '../../helpers/roster-plans.js';

/**
 * Bounded fuzzing of what a school's files can do to the import: a real OneRoster export and a one-file CSV,
 * each mutated at random (seeded: a failure names its seed) — fields blanked, doubled, given quotes, commas,
 * line breaks, a BOM or another file's value; rows dropped, repeated or cut short; bytes flipped. Whatever the
 * bytes, reading ends in a RosterSource whose every problem names a file, a line and a message (or, for what is
 * not a roster at all, a RosterReadError), and planning it against an empty store never throws.
 */

const ROUNDS = 120;
const TIME_BUDGET_MS = 25_000;
const FIXTURE = join(projectRoot, 'test/fixtures/roster/oneroster-1.1');
const ONE_FILE = join(projectRoot, 'test/fixtures/roster/one-file.csv');

const PIECES = ['', '"', '""', ',', '\r\n', '\n', '\uFEFF', 'tobedeleted', 'false', 'TRUE', 'teacher', 'wizard', '2026-13-45',
  '../../etc/passwd', '\u0000', 'é', '𝔘', ' ', 'x'.repeat(300), 'c-3a', 's1', 'p1,p2'];

function mutate(text: string, r: () => number): string {
  const lines = text.split(/(?<=\n)/);
  for (let n = 1 + Math.floor(r() * 4); n > 0; n -= 1) {
    const i = Math.floor(r() * lines.length);
    const line = lines[i] ?? '';
    switch (Math.floor(r() * 6)) {
      case 0: { // a field replaced
        const fields = line.split(',');
        fields[Math.floor(r() * fields.length)] = pick(r, PIECES);
        lines[i] = fields.join(',');
        break;
      }
      case 1: lines.splice(i, 1); break; // a row dropped
      case 2: lines.splice(i, 0, line); break; // a row repeated
      case 3: lines[i] = line.slice(0, Math.floor(r() * line.length)); break; // cut short
      case 4: lines[i] = line.replace(/,/, `,${pick(r, PIECES)}`); break; // a column too many
      default: { // a character changed
        const at = Math.floor(r() * line.length);
        lines[i] = `${line.slice(0, at)}${pick(r, PIECES)}${line.slice(at + 1)}`;
      }
    }
  }
  return lines.join('');
}

/** Reads and plans; returns what went wrong with the result's shape, or undefined when all is well. */
let refused = 0;

async function readAndPlan(path: string, org?: string): Promise<string | undefined> {
  let source;
  try {
    source = await readRoster(path, { org });
  } catch (err) {
    return err instanceof RosterReadError ? undefined : `readRoster threw ${(err as Error).stack}`;
  }
  if (source.errors.length) refused += 1;
  for (const e of source.errors) {
    if (typeof e.file !== 'string' || !Number.isInteger(e.line) || e.line < 0 || typeof e.column !== 'string' || !e.message) {
      return `a malformed error: ${JSON.stringify(e)}`;
    }
  }
  try {
    const plan = planRoster(source, emptySnapshot(), context([]));
    if (source.errors.length && !plan.errors.length) return 'the reader\'s errors were dropped by the plan';
  } catch (err) {
    return `planRoster threw ${(err as Error).stack}`;
  }
  return undefined;
}

t.test('a mutated OneRoster export or one-file CSV is read and planned without a throw', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-roster-fuzz-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const files = readdirSync(FIXTURE).filter((f) => f.endsWith('.csv'));
  const oneFile = readFileSync(ONE_FILE, 'utf8');
  const began = Date.now();
  const problems: string[] = [];
  let rounds = 0;
  for (let seed = 1; seed <= ROUNDS && Date.now() - began < TIME_BUDGET_MS; seed += 1) {
    const r = random(seed);
    rounds += 1;
    if (seed % 4 === 0) {
      const path = join(dir, `one-file-${seed}.csv`);
      writeFileSync(path, mutate(oneFile, r));
      const problem = await readAndPlan(path, 'fuzz-school');
      if (problem) problems.push(`seed ${seed} (one-file): ${problem}`);
      continue;
    }
    const folder = join(dir, `export-${seed}`);
    cpSync(FIXTURE, folder, { recursive: true });
    const file = pick(r, files);
    writeFileSync(join(folder, file), mutate(readFileSync(join(folder, file), 'utf8'), r));
    const problem = await readAndPlan(folder);
    if (problem) problems.push(`seed ${seed} (${file}): ${problem}`);
    rmSync(folder, { recursive: true, force: true });
  }
  t.ok(rounds >= 30, `enough rounds ran within the time budget (${rounds})`);
  t.same(problems, [], 'every mutated export read and planned cleanly');
  t.ok(refused >= rounds / 4, `the mutations reach the checks: ${refused} of ${rounds} exports had errors`);
});
