import t from 'tap';
import { guardStore } from '../../../adapters/guarded-store.js';
import type { Store } from '../../../adapters/store.js';
import { LanyardError, StoreUnavailableError } from '../../../src/errors.js';

/**
 * Every backend failure reaches Lanyard as StoreUnavailableError (503), stripped of what a driver attaches:
 * ioredis puts the failed command and its arguments (session ids, token values) on its errors.
 * The "backend" here is a plain object whose methods fail the way drivers do: nothing is mocked.
 */
const redisLikeError = () => Object.assign(new Error('READONLY You can\'t write against a read only replica.'), {
  name: 'ReplyError',
  code: 'READONLY',
  command: { name: 'evalsha', args: ['sha', '3', 'lanyard:{oidc:Session}:rec:SESSION-COOKIE-VALUE'] },
});

const backend = {
  backend: 'test',
  oidc: { async find() { throw redisLikeError(); } },
  async findUser() { throw redisLikeError(); },
  findClient() { throw new Error('thrown synchronously'); },
  async replaceKey() { throw new LanyardError('not_found', 'signing key k is not an active key', 404, true); },
  async *exportEntries() { yield { kind: 'setting', value: { name: 'a', value: 'b' } }; throw redisLikeError(); },
} as unknown as Store;

t.test('backend errors become StoreUnavailableError without the command and its arguments', async (t) => {
  const store = guardStore(backend);
  t.equal(store.backend, 'test', 'plain properties pass through');
  for (const [what, call] of [['async', () => store.findUser('u')], ['nested', () => store.oidc.find('Session', 's')], ['sync', () => store.findClient('c')]] as const) {
    const err = await (call() as Promise<unknown>).then(() => undefined, (e: unknown) => e);
    t.ok(err instanceof StoreUnavailableError, `${what}: StoreUnavailableError`);
    t.equal((err as StoreUnavailableError).statusCode, 503, `${what}: 503`);
    t.notMatch(JSON.stringify({ ...(err as object), cause: { ...((err as Error).cause as object), message: ((err as Error).cause as Error).message } }), /SESSION-COOKIE-VALUE|evalsha/, `${what}: no command arguments kept`);
  }
  const cause = await store.findUser('u').then(() => undefined, (e: Error) => e.cause as Error & { code?: string; command?: unknown });
  t.equal(cause?.code, 'READONLY', 'the code is kept');
  t.match(cause?.message, /READONLY/, 'the message is kept');
  t.equal(cause?.command, undefined, 'the command is dropped');
  await t.rejects(store.replaceKey('k', {} as never, ''), { code: 'not_found', statusCode: 404 }, 'Lanyard\'s own errors pass unchanged');
  const seen: string[] = [];
  await t.rejects((async () => { for await (const e of store.exportEntries()) seen.push(e.kind); })(), StoreUnavailableError, 'an export failing midway');
  t.same(seen, ['setting'], 'what was exported before the failure');
});
