import { PassThrough } from 'node:stream';
import t from 'tap';
import { importProgress } from '../../../src/cli/roster-progress.js';

/** A stream that says it is a terminal 100 columns wide, collecting what is drawn on it. */
function terminal(): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  let out = '';
  stream.on('data', (b: Buffer) => { out += b.toString(); });
  Object.assign(stream, { isTTY: true, columns: 100, rows: 30, cursorTo: () => true, moveCursor: () => true, clearLine: () => true, clearScreenDown: () => true });
  return { stream, text: () => out };
}

t.test('on a terminal each file gets a bar that fills by its bytes read, with its rows', async (t) => {
  const tty = terminal();
  const p = importProgress(tty.stream, { quiet: false });
  p.read('users.csv', 1000, false, { read: 250, total: 1000 });
  await new Promise((resolve) => setTimeout(resolve, 150));
  p.read('users.csv', 4000, true, { read: 1000, total: 1000 });
  p.read('school.csv', 30, true, { read: 900, total: undefined });
  p.step('applying…');
  p.end();
  const text = tty.text();
  t.match(text, /users\.csv \[[^\]]*\] 25% · 1000 rows/, 'a quarter of the bytes read: 25 %');
  t.match(text, /users\.csv \[[^\]]*\] 100% · 4000 rows read/, 'the whole file: 100 %, and its rows');
  t.match(text, /school\.csv \[[^\]]*\] 100% · 30 rows read/, 'a file of unknown size is full once read');
  t.match(text, /applying…/, 'the steps after reading are shown');
});

t.test('elsewhere a plain line per file read; nothing at all with --json', async (t) => {
  const plain = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  let out = '';
  plain.on('data', (b: Buffer) => { out += b.toString(); });
  const p = importProgress(plain, { quiet: false });
  p.read('users.csv', 1000, false, { read: 10, total: 100 });
  p.read('users.csv', 2, true, { read: 100, total: 100 });
  p.step('planning…');
  p.end();
  t.equal(out, 'read users.csv: 2 rows\nplanning…\n');
  const quiet = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  let said = '';
  quiet.on('data', (b: Buffer) => { said += b.toString(); });
  const q = importProgress(quiet, { quiet: true });
  q.read('users.csv', 2, true, { read: 1, total: 1 });
  q.step('planning…');
  q.end();
  t.equal(said, '', '--json: standard error stays quiet');
});
