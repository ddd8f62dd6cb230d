import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import t, { type Test } from 'tap';
import { LOG_BUFFER_BYTES, LOG_FLUSH_MS, serverLogStream } from '../../src/logging.js';

const projectRoot = join(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tempFile(t: Test): { path: string; out: NodeJS.WriteStream } {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-log-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'out.log');
  return { path, out: { fd: openSync(path, 'a') } as unknown as NodeJS.WriteStream };
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { i: number });

/** Waits until `path` holds `n` lines, at most `ms`; how long it took. */
async function untilLines(path: string, n: number, ms: number): Promise<number> {
  const started = Date.now();
  while (lines(path).length < n && Date.now() - started < ms) await sleep(10);
  return Date.now() - started;
}

t.test('a serving process gathers its JSON lines and writes them together, at least every LOG_FLUSH_MS', async (t) => {
  const { path, out } = tempFile(t);
  const stream = serverLogStream(false, out);
  const log = pino({ base: undefined }, stream);
  t.teardown(() => (stream as unknown as { destroy(): void }).destroy());
  for (let i = 0; i < 5; i++) log.info({ i }, 'line');
  await sleep(LOG_FLUSH_MS / 5);
  t.equal(statSync(path).size, 0, 'a few lines wait to be written with the next ones');
  const waited = await untilLines(path, 5, LOG_FLUSH_MS * 8);
  t.same(lines(path).map((l) => l.i), [0, 1, 2, 3, 4], 'then every line is written, in order');
  t.ok(waited < LOG_FLUSH_MS * 8, `within a moment on a quiet server (${waited} ms)`);
});

t.test(`once ${LOG_BUFFER_BYTES} bytes have gathered they are written without waiting`, async (t) => {
  const { path, out } = tempFile(t);
  const stream = serverLogStream(false, out);
  const log = pino({ base: undefined }, stream);
  t.teardown(() => (stream as unknown as { destroy(): void }).destroy());
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
