import t from 'tap';
import { decodeCursor, encodeCursor } from '../../../../src/school/audit/audit-cursor.js';
import { parseAuditQuery, queryParams, storeFilter } from '../../../../src/school/audit/audit-query.js';
import { SchoolInputError } from '../../../../src/school/errors.js';

/** The audit trail's filters (docs/school-console.md → Audit and usage): UTC days, both included; the `before` cursor. */

t.test('days become the store filter: from its first instant, to the next day’s first (the last day included)', async (t) => {
  const query = parseAuditQuery({ from: '2025-03-01', to: '2025-03-03', kind: 'sign_in', app: 'app1' });
  const filter = storeFilter('o1', query, ['u1'], 50);
  t.same(filter, {
    organisationId: 'o1', from: '2025-03-01T00:00:00.000Z', to: '2025-03-04T00:00:00.000Z', kinds: ['sign_in'], userIds: ['u1'],
    clientId: 'app1', before: undefined, limit: 50,
  });
  t.equal(storeFilter('o1', parseAuditQuery({ to: '2024-02-28' }), undefined, 1).to, '2024-02-29T00:00:00.000Z', 'leap years');
  t.same(parseAuditQuery({ person: '  ', from: '' }), { from: undefined, to: undefined, person: undefined, userId: undefined, classId: undefined, app: undefined, kind: undefined, before: undefined }, 'blank fields are no filter');
});

t.test('refused fields are named, each once, for the form and the API', async (t) => {
  const refused = (input: Parameters<typeof parseAuditQuery>[0]) => {
    try {
      parseAuditQuery(input);
      return [];
    } catch (err) {
      t.ok(err instanceof SchoolInputError);
      return (err as SchoolInputError).fields.map((f) => f.path);
    }
  };
  t.same(refused({ from: '2025-02-30' }), ['from'], 'not a day');
  t.same(refused({ to: '03/04/2025' }), ['to']);
  t.same(refused({ from: '2025-03-05', to: '2025-03-04' }), ['to'], 'the last day before the first');
  t.same(refused({ kind: 'everything' }), ['kind']);
  t.same(refused({ before: 'not-a-cursor!' }), ['before']);
  t.same(refused({ person: 'x'.repeat(201) }), ['person']);
});

t.test('the cursor goes round, and nothing else passes for one', async (t) => {
  const at = '2025-03-04T09:15:00.000Z';
  const cursor = encodeCursor({ at, id: '01J-abc' });
  t.match(cursor, /^[A-Za-z0-9_-]+$/, 'URL-safe');
  t.same(decodeCursor(cursor), { at, id: '01J-abc' });
  t.same(parseAuditQuery({ before: cursor }).before, { at, id: '01J-abc' });
  t.equal(decodeCursor(Buffer.from('["nope","x"]').toString('base64url')), undefined, 'not a time');
  t.equal(decodeCursor(Buffer.from('{"at":1}').toString('base64url')), undefined, 'not ours');
  t.equal(decodeCursor('a'.repeat(401)), undefined, 'too long');
});

t.test('the query as link parameters keeps every filter, and the page', async (t) => {
  const query = parseAuditQuery({ from: '2025-03-01', person: 'ada', classId: 'c1', kind: 'launch' });
  t.equal(queryParams(query, { before: 'abc' }).toString(), 'from=2025-03-01&person=ada&class_id=c1&kind=launch&before=abc');
});
