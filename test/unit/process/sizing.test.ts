import t from 'tap';
import { argon2Slots, threadPoolSize, WORKER_SEMI_SPACE_MB, workerExecArgv } from '../../../src/process/sizing.js';

t.test('argon2 slots: cores − 1 for the whole machine, at least 1; the pool of the process that hashes has room for all of them', async (t) => {
  t.same([1, 2, 4, 16].map((cores) => argon2Slots(cores)), [1, 1, 3, 15]);
  t.equal(threadPoolSize(2, 2), 4, 'never below libuv’s 4');
  t.equal(threadPoolSize(4, 16), 5, 'a worker hashes nothing: its 4 cores’ share of signing + 1');
  t.equal(threadPoolSize(1, 8), 7 + 8 + 1, 'the primary or a process serving alone: every argon2 slot, every core for signing, and one');
  t.same([1, 2, 8].map((cores) => threadPoolSize(1, cores)), [4, 4, 16]);
});

t.test('workers: a bounded young generation, unless the operator has chosen one', async (t) => {
  const bound = `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`;
  t.same(workerExecArgv([], ''), [bound], 'added');
  t.same(workerExecArgv(['--enable-source-maps'], '--no-warnings'), ['--enable-source-maps', bound], 'beside the primary’s own flags');
  t.same(workerExecArgv(['--max-semi-space-size=64'], ''), ['--max-semi-space-size=64'], 'the operator’s flag kept');
  t.same(workerExecArgv([], '--max-old-space-size=512 --max-semi-space-size=8'), [], 'NODE_OPTIONS kept (a command-line flag would override it)');
  t.same(workerExecArgv(['--max_semi_space_size=64'], ''), ['--max_semi_space_size=64'], 'written with underscores, as Node also reads it');
  t.same(workerExecArgv([], '--max_semi-space_size=8'), [], 'in NODE_OPTIONS too');
  t.same(workerExecArgv(['--max-old-space-size=512'], '--min-semi-space-size=1'), ['--max-old-space-size=512', bound], 'other heap flags are not this one');
});
