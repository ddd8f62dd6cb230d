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
    stream, format: ' {file} {value} rows {state}', hideCursor: true, clearOnComplete: false, fps: 10, noTTYOutput: false,
  }, cliProgress.Presets.shades_classic);
  const byFile = new Map<string, cliProgress.SingleBar>();
  let stepBar: cliProgress.SingleBar | undefined;
  return {
    read: (file, rows, done) => {
      let bar = byFile.get(file);
      if (!bar) {
        bar = bars.create(0, 0, { file, state: '…' });
        byFile.set(file, bar);
      }
      bar.setTotal(Math.max(rows, 1));
      bar.update(rows, { file, state: done ? 'read' : '…' });
    },
    step: (text) => {
      if (!stepBar) stepBar = bars.create(1, 0, { file: text, state: '' }, { format: ' {file}' });
      else stepBar.update(0, { file: text });
    },
    end: () => { bars.stop(); },
  };
}
