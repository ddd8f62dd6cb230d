import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface LogScan {
  lines: number;
  warnings: number;
  errors: number;
  /** Requests answered with a 5xx, as Lanyard logged them, other than sign-ins turned away. */
  serverErrors: number;
  /** Sign-ins turned away because the machine was saturated (`login.busy`: 503 with Retry-After, expected above saturation). */
  turnedAway: number;
  /** The first few distinct error and warning messages, to say what went wrong. */
  samples: string[];
  /** When Lanyard began shutting down (ms since the epoch) and on which signal: the bench's own stop, or not. */
  shutdowns: { time: number; signal?: string }[];
}

/**
 * Reads Lanyard's JSON log after a run: how many lines (against the requests the bench sent: one line per
 * request is the goal), warnings, errors and 5xx answers. Only lines that look interesting are parsed.
 */
export async function scanLog(file: string): Promise<LogScan> {
  const scan: LogScan = { lines: 0, warnings: 0, errors: 0, serverErrors: 0, turnedAway: 0, samples: [], shutdowns: [] };
  const seen = new Set<string>();
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line) continue;
    scan.lines += 1;
    if (line.includes('"event":"shutdown"')) {
      const entry = JSON.parse(line) as { time: number; signal?: string };
      scan.shutdowns.push({ time: entry.time, ...(entry.signal ? { signal: entry.signal } : {}) });
    }
    if (line.includes('"event":"login.busy"')) {
      scan.turnedAway += 1;
      continue;
    }
    const level = /"level":(\d+)/.exec(line)?.[1];
    const fiveHundred = /"statusCode":5\d\d/.test(line);
    if (fiveHundred) scan.serverErrors += 1;
    if (level === '40') scan.warnings += 1;
    else if (level === '50' || level === '60') scan.errors += 1;
    else if (!fiveHundred) continue;
    if (seen.size >= 8) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; event?: string; err?: { message?: string }; res?: { statusCode?: number }; req?: { url?: string } };
      const text = [
        level === '40' ? 'warn' : level === '50' || level === '60' ? 'error' : 'info',
        entry.event, entry.msg, entry.err?.message, entry.res?.statusCode, entry.req?.url?.split('?')[0],
      ].filter((x) => x !== undefined && x !== '').join(' | ');
      if (!seen.has(text)) { seen.add(text); scan.samples.push(text); }
    } catch { /* not JSON: a crash trace */ }
  }
  return scan;
}
