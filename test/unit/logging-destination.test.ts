import { once } from 'node:events';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import t, { type Test } from 'tap';
import { LOG_BUFFER_BYTES, LOG_FLUSH_MS, serverLogStream } from '../../src/logging.js';
import { projectRoot } from '../../src/package-files.js';


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A new file's path; `out` opens it for a stream in this process, which owns the descriptor and closes it. */
function tempFile(t: Test): { path: string; out: () => NodeJS.WriteStream } {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-log-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'out.log');
  return { path, out: () => ({ fd: openSync(path, 'a') }) as unknown as NodeJS.WriteStream };
}

/** The stream's own end (sonic-boom closes the descriptor it was given) when the test ends. */
const destroyAtEnd = (t: Test, stream: pino.DestinationStream) => t.teardown(() => (stream as unknown as { destroy(): void }).destroy());

/** A FIFO in a new directory, and its read end, open without waiting for a writer (so writers open at once). */
function fifoWithReader(t: Test): { fifo: string; reader: number } {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-log-fifo-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const fifo = join(dir, 'out.fifo');
  execFileSync('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  t.teardown(() => closeSync(reader));
  return { fifo, reader };
}

/** Bytes read into `buf` now: 0 when the pipe holds nothing yet (EAGAIN) or every writer has closed it. */
function readNow(fd: number, buf: Buffer): number {
  try {
    return readSync(fd, buf, 0, buf.length, null);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
    return 0;
  }
}

const parse = (text: string) => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { i: number; pid: number });
const lines = (path: string) => parse(readFileSync(path, 'utf8'));

/** Waits until `path` holds `n` lines, at most `ms`; how long it took. */
async function untilLines(path: string, n: number, ms: number): Promise<number> {
  const started = Date.now();
  while (lines(path).length < n && Date.now() - started < ms) await sleep(10);
  return Date.now() - started;
}

t.test('a serving process gathers its JSON lines and writes them together, at least every LOG_FLUSH_MS', async (t) => {
  const { path, out } = tempFile(t);
  const stream = serverLogStream(false, out());
  const log = pino({ base: undefined }, stream);
  destroyAtEnd(t, stream);
  for (let i = 0; i < 5; i++) log.info({ i }, 'line');
  await sleep(LOG_FLUSH_MS / 5);
  t.equal(statSync(path).size, 0, 'a few lines wait to be written with the next ones');
  const waited = await untilLines(path, 5, LOG_FLUSH_MS * 8);
  t.same(lines(path).map((l) => l.i), [0, 1, 2, 3, 4], 'then every line is written, in order');
  t.ok(waited < LOG_FLUSH_MS * 8, `within a moment on a quiet server (${waited} ms)`);
});

t.test(`once ${LOG_BUFFER_BYTES} bytes have gathered they are written without waiting`, async (t) => {
  const { path, out } = tempFile(t);
  const stream = serverLogStream(false, out());
  const log = pino({ base: undefined }, stream);
  destroyAtEnd(t, stream);
  const padding = 'x'.repeat(100);
  const n = Math.ceil(LOG_BUFFER_BYTES / 100) + 5;
  for (let i = 0; i < n; i++) log.info({ i, padding }, 'line');
  const started = Date.now();
  while (statSync(path).size < LOG_BUFFER_BYTES && Date.now() - started < LOG_FLUSH_MS / 2) await sleep(5);
  t.ok(statSync(path).size >= LOG_BUFFER_BYTES, `at least ${LOG_BUFFER_BYTES} bytes written before the periodic flush`);
});

const ENDINGS = { exit: ['process.exit', 0], drain: ['its event loop empty', 0], throw: ['an uncaught exception', 1] } as const;
for (const [how, [what, exitCode]] of Object.entries(ENDINGS)) {
  t.test(`a process that ends (${what}) writes every line it gathered`, async (t) => {
    const { path } = tempFile(t);
    const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'test/fixtures/log-then-exit.ts'), path, '7', how], { cwd: projectRoot, stdio: 'ignore' });
    const [code] = await once(child, 'exit') as [number];
    t.equal(code, exitCode, `exits with ${exitCode}`);
    t.same(lines(path).map((l) => l.i), [0, 1, 2, 3, 4, 5, 6], 'all 7 lines are in the file');
  });
}

t.test('a person at a terminal gets short lines; a stream with no file descriptor is written as it is', async (t) => {
  const pretty = new PassThrough() as unknown as NodeJS.WriteStream;
  t.not(serverLogStream(true, pretty), pretty, 'pretty: the short-line formatter');
  const plain = new PassThrough() as unknown as NodeJS.WriteStream;
  t.equal(serverLogStream(false, plain), plain, 'no fd: the stream itself');
});

t.test('processes sharing a pipe read slowly: every line arrives whole, none cut by another process\'s', async (t) => {
  const { fifo, reader } = fifoWithReader(t);
  const LINES = 3000;
  const writers = [0, 1].map(() => spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'test/fixtures/log-then-exit.ts'), fifo, String(LINES), 'drain', '300'], { cwd: projectRoot, stdio: 'ignore' }));
  const exited = writers.map((w) => once(w, 'exit'));
  // Read slowly, a few kilobytes at a time, so that the pipe stays full and the writers wait on it.
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(8192);
  const started = Date.now();
  let open = 2;
  void Promise.all(exited).then(() => { open = 0; });
  for (;;) {
    const n = readNow(reader, buf);
    if (n > 0) chunks.push(Buffer.from(buf.subarray(0, n)));
    else if (open === 0 || Date.now() - started > 60_000) break;
    await sleep(n > 0 ? 1 : 5);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let got: { i: number; pid: number }[] = [];
  t.doesNotThrow(() => { got = parse(text); }, 'every line is whole JSON');
  const pids = writers.map((w) => w.pid!);
  for (const pid of pids) t.same(got.filter((l) => l.pid === pid).map((l) => l.i), [...Array(LINES).keys()], `all ${LINES} lines of one writer, in order`);
});

// A smaller bound than a server's (LOG_HELD_BYTES), so that the pipe drains in a moment: sonic-boom waits
// 100 ms after each EAGAIN, so a full pipe passes about 640 KiB a second.
const HELD = 1024 * 1024;
t.test('behind a pipe nobody reads, at most the bound is held; the lines past it are counted and the count written once it is read', async (t) => {
  const { fifo, reader } = fifoWithReader(t);
  const stream = serverLogStream(false, { fd: openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK) } as unknown as NodeJS.WriteStream, HELD);
  destroyAtEnd(t, stream);
  let dropped = 0;
  (stream as unknown as NodeJS.EventEmitter).on('drop', (data: string) => { if (!data.includes('"log.dropped"')) dropped += 1; });
  const log = pino({ base: undefined }, stream);
  const padding = 'p'.repeat(300);
  // Enough to fill the pipe and the bound, and then some (bounded: a few times the bound's lines).
  for (let i = 0; i < (3 * HELD) / 300 && dropped < 1000; i++) log.info({ i, padding }, 'line');
  t.equal(dropped, 1000, 'past the bound, lines are dropped rather than held');

  // Now read everything: the count arrives after the lines that were held.
  const buf = Buffer.alloc(65536);
  let tail = '';
  const notices: { lines: number; level: number }[] = [];
  const started = Date.now();
  while (!notices.length && Date.now() - started < 30_000) {
    const n = readNow(reader, buf);
    if (n === 0) { await sleep(10); continue; }
    tail += buf.toString('utf8', 0, n);
    const cut = tail.lastIndexOf('\n');
    for (const line of tail.slice(0, cut + 1).split('\n')) if (line.includes('"log.dropped"')) notices.push(JSON.parse(line) as { lines: number; level: number });
    tail = tail.slice(cut + 1);
  }
  t.equal(notices.length, 1, 'one line says lines were dropped');
  t.equal(notices[0]?.lines, dropped, 'with their number');
  t.equal(notices[0]?.level, 40, 'as a warning');
});
