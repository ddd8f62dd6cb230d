import t from 'tap';
import { usageRange } from '../../../../src/school/audit/usage.js';
import { SchoolInputError } from '../../../../src/school/errors.js';

/** The days the usage page and API show (docs/school-console.md → Audit and usage): the last 30 unless chosen, at most 366. */

const today = '2025-03-31';

t.test('the last 30 days unless chosen; one end given, the other follows', async (t) => {
  t.same(usageRange({}, today), { from: '2025-03-02', to: today });
  t.same(usageRange({ to: '2025-01-31' }, today), { from: '2025-01-02', to: '2025-01-31' });
  t.same(usageRange({ from: '2025-01-01' }, today), { from: '2025-01-01', to: '2025-01-30' });
  t.same(usageRange({ from: '2025-03-20' }, today), { from: '2025-03-20', to: today }, 'not past today');
  t.same(usageRange({ from: '2024-04-01', to: '2025-03-31' }, today), { from: '2024-04-01', to: '2025-03-31' }, 'a year');
});

t.test('refused ranges name the field', async (t) => {
  const field = (input: { from?: string; to?: string }) => {
    try {
      usageRange(input, today);
      return undefined;
    } catch (err) {
      t.ok(err instanceof SchoolInputError);
      return (err as SchoolInputError).fields[0]?.path;
    }
  };
  t.equal(field({ from: 'yesterday' }), 'from');
  t.equal(field({ from: '2025-03-10', to: '2025-03-01' }), 'to');
  t.equal(field({ from: '2023-01-01', to: '2025-03-01' }), 'to', 'more than 366 days');
});
