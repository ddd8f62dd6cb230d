import Fastify from 'fastify';
import { Writable } from 'node:stream';
import t from 'tap';
import { apiErrorHandler, toPointer } from '../../../src/developer/api/errors.js';
import { apiValidator } from '../../../src/developer/api/validator.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../../src/developer/errors.js';
import { StoreUnavailableError } from '../../../src/errors.js';

t.test('service field paths become JSON pointers (RFC 6901)', async (t) => {
  t.equal(toPointer('redirect_uri'), '/redirect_uri');
  t.equal(toPointer('/already'), '/already');
  t.equal(toPointer(''), '');
  t.equal(toPointer('default_scopes[1]'), '/default_scopes/1');
  t.equal(toPointer('detail.name'), '/detail/name');
  t.equal(toPointer('a~b/c'), '/a~0b~1c', '~ and / escaped');
});

async function app(t: { teardown(fn: () => unknown): void }) {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } });
  const f = Fastify({ logger: { level: 'info', stream } });
  apiValidator(f);
  apiErrorHandler(f);
  const errors: Record<string, () => unknown> = {
    validation: () => new ValidationError([{ path: 'homepage_url', message: 'must use https' }, { path: 'name', message: 'required' }]),
    missing: () => new NotFoundError(),
    forbidden: () => new ForbiddenError('owners only'),
    conflict: () => new ConflictError('already live'),
    store: () => new StoreUnavailableError(new Error('SQLITE_BUSY')),
    bug: () => new TypeError('cannot read properties of undefined (secret internals)'),
  };
  f.get<{ Params: { what: string } }>('/throw/:what', async (req) => { throw errors[req.params.what]!(); });
  f.post('/body', {
    schema: {
      body: {
        type: 'object', required: ['a', 'we/ird'], additionalProperties: false,
        properties: { a: { type: 'integer' }, 'we/ird': { type: 'string' }, list: { type: 'array', items: { type: 'string' } } },
      },
    },
  }, async () => ({ ok: true }));
  t.teardown(() => f.close());
  return { f, lines };
}

t.test('every error in one shape, with its status', async (t) => {
  const { f, lines } = await app(t);
  const get = async (what: string) => {
    const res = await f.inject(`/throw/${what}`);
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  t.same(await get('validation').then((r) => [r.status, r.body]), [400, {
    error: 'invalid_request', error_description: 'must use https; required',
    fields: [{ path: '/homepage_url', message: 'must use https' }, { path: '/name', message: 'required' }],
  }]);
  t.same(await get('missing').then((r) => [r.status, r.body.error]), [404, 'not_found']);
  t.same(await get('forbidden').then((r) => [r.status, r.body]), [403, { error: 'forbidden', error_description: 'owners only' }]);
  t.same(await get('conflict').then((r) => [r.status, r.body]), [409, { error: 'conflict', error_description: 'already live' }]);
  const store = await get('store');
  t.same([store.status, store.body.error, store.headers['retry-after'], store.headers['cache-control']], [503, 'temporarily_unavailable', '5', 'no-store']);
  const bug = await get('bug');
  t.same([bug.status, bug.body.error], [500, 'server_error']);
  t.notOk(JSON.stringify(bug.body).includes('internals'), 'nothing of the failure is shown');
  t.ok(lines.some((l) => l.includes('"event":"developer_api.failed"') && l.includes('internals')), 'but it is logged');
  for (const what of ['validation', 'missing', 'forbidden', 'conflict', 'bug']) {
    t.equal((await get(what)).headers['cache-control'], 'no-store', `${what}: no-store`);
  }
});

t.test('schema refusals: every problem, each with its pointer; bodies are not coerced or trimmed', async (t) => {
  const { f } = await app(t);
  const post = async (payload: unknown) => {
    const res = await f.inject({ method: 'POST', url: '/body', payload: payload as object });
    return { status: res.statusCode, body: res.json() };
  };
  const all = await post({ a: '1', list: ['x', 2], extra: 1 });
  t.equal(all.status, 400);
  t.same(all.body.fields.map((x: { path: string }) => x.path).sort(), ['/a', '/extra', '/list/1', '/we~1ird'].sort());
  t.match(all.body.error_description, /^the request body was refused: /);
  t.equal((await post({ a: 1, 'we/ird': 'x' })).status, 200);
  t.same((await post([1])).body.fields.map((x: { path: string }) => x.path), ['']);
  const queried = await f.inject({ method: 'POST', url: '/body', payload: 'not json', headers: { 'content-type': 'application/json' } });
  t.equal(queried.statusCode, 400);
  t.equal(queried.json().error, 'invalid_request');
});
