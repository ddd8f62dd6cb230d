import cliProgress from 'cli-progress';
import type { ReadProgress } from '../roster/source.js';

/**
 * Progress while `lanyard roster import` reads the files: on a terminal a line per file redrawn in place
 * (cli-progress, on standard error), otherwise a plain line per file read; nothing with --json, whose
 * standard output is the one JSON object and whose standard error stays quiet.
 */
export interface ImportProgress {
  read: ReadProgress;
  /** A step after reading (planning, applying), for the terminal or the log. */
  step(text: string): void;
  end(): void;
}

const SILENT: ImportProgress = { read: () => {}, step: () => {}, end: () => {} };

export function importProgress(stream: NodeJS.WriteStream, o: { quiet: boolean }): ImportProgress {
  if (o.quiet) return SILENT;
  if (!stream.isTTY) {
    return {
      read: (file, rows, done) => { if (done) stream.write(`read ${file}: ${rows} row${rows === 1 ? '' : 's'}\n`); },
      step: (text) => { stream.write(`${text}\n`); },
      end: () => {},
    };
  }
  const bars = new cliProgress.MultiBar({
    stream, format: ' {file} [{bar}] {percentage}% · {rows} rows {state}', hideCursor: true, clearOnComplete: false, fps: 10, noTTYOutput: false,
    barsize: 24,
  }, cliProgress.Presets.shades_classic);
  const byFile = new Map<string, cliProgress.SingleBar>();
  let stepBar: cliProgress.SingleBar | undefined;
  return {
    // A file's bar fills by its bytes read of its size; a file of unknown size (the one-file CSV, a stream)
    // by its rows, full when it is read.
    read: (file, rows, done, bytes) => {
      let bar = byFile.get(file);
      if (!bar) {
        bar = bars.create(1, 0, { file, rows: 0, state: '…' });
        byFile.set(file, bar);
      }
      const total = bytes?.total;
      if (total) {
        bar.setTotal(Math.max(total, 1));
        bar.update(done ? Math.max(total, 1) : Math.min(bytes.read, total), { file, rows, state: done ? 'read' : '' });
      } else {
        bar.setTotal(Math.max(rows, 1));
        bar.update(done ? Math.max(rows, 1) : 0, { file, rows, state: done ? 'read' : '…' });
      }
    },
    step: (text) => {
      if (!stepBar) stepBar = bars.create(1, 0, { file: text, state: '' }, { format: ' {file}' });
      else stepBar.update(0, { file: text });
    },
    end: () => { bars.stop(); },
  };
}
