import t from 'tap';
import { buildSerializer } from '../../../src/http/serializers.js';

const route = (schema: unknown) => ({ method: 'GET', url: '/x', httpStatus: '200', schema });
const item = { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } } };

t.test('a schema is compiled once per process, whichever app asks', async (t) => {
  const first = buildSerializer({}, {})(route(item));
  const again = buildSerializer({}, {})(route(JSON.parse(JSON.stringify(item)) as unknown)); // another app's copy
  t.equal(again, first, 'the same serializer for the same schema');
  t.equal(first({ id: 'a', n: 2, secret: 'not in the schema' }), '{"id":"a","n":2}', 'and it serializes by the schema');
  const other = buildSerializer({}, {})(route({ type: 'object', properties: { id: { type: 'string' } } }));
  t.not(other, first, 'another schema, another serializer');
});

t.test('shared schemas and options are part of what a serializer is', async (t) => {
  const ref = route({ $ref: 'shared#' });
  const asString = buildSerializer({ shared: { $id: 'shared', type: 'object', properties: { v: { type: 'string' } } } }, {})(ref);
  const asInteger = buildSerializer({ shared: { $id: 'shared', type: 'object', properties: { v: { type: 'integer' } } } }, {})(ref);
  t.not(asInteger, asString, 'the same route schema over other shared schemas compiles again');
  t.equal(asString({ v: 5 }), '{"v":"5"}');
  t.equal(asInteger({ v: 5 }), '{"v":5}');
});
