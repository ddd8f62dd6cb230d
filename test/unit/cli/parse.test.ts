import t from 'tap';
import { command, type Command, UsageError } from '../../../src/cli/command.js';
import { didYouMean, editDistance } from '../../../src/cli/did-you-mean.js';
import { commandUsage, synopsis } from '../../../src/cli/help.js';
import { parseInvocation } from '../../../src/cli/parse.js';

let ran = 0;
const copy: Command = command({
  name: 'copy',
  summary: 'copy a store',
  args: [{ name: 'note', description: 'a note' }],
  options: {
    from: { type: 'string', placeholder: 'URL', description: 'source', required: '--from and --to are required' },
    to: { type: 'string', placeholder: 'URL', description: 'target', required: '--from and --to are required' },
    merge: { type: 'flag', description: 'merge' },
    users: { type: 'list', placeholder: 'a,b', description: 'some users' },
    paper: { type: 'string', choices: ['letter', 'a4'], default: 'letter', description: 'paper' },
    org: { type: 'string', placeholder: 'SLUG', description: 'organisation' },
  },
  run: () => { ran += 1; },
});

const usageError = (args: string[]): string => {
  try {
    parseInvocation(copy, args, 'store copy');
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    return `not a usage error: ${(err as Error).message}`;
  }
  return 'accepted';
};

t.test('edit distance and the suggestion', async (t) => {
  t.equal(editDistance('marge', 'merge'), 1);
  t.equal(editDistance('ogr', 'org'), 1, 'a swap is one edit');
  t.equal(editDistance('', 'abc'), 3);
  t.equal(didYouMean('orgg', ['org', 'user', 'out']), 'org');
  t.equal(didYouMean('usres', ['serve', 'users', 'store']), 'users');
  t.equal(didYouMean('x', ['to', 'org']), undefined, 'nothing close: no guess');
  t.equal(didYouMean('completely', ['org', 'user']), undefined);
});

t.test('options parse into typed values: strings, comma lists, flags, defaults', async (t) => {
  const parsed = parseInvocation(copy, ['--from', 'a', '--to=b', '--merge', '--users', ' ann, bob ,,', 'why'], 'store copy');
  t.not(parsed, 'help');
  if (parsed === 'help') return;
  t.same(parsed.options, { from: 'a', to: 'b', merge: true, users: ['ann', 'bob'], paper: 'letter', org: undefined });
  t.same(parsed.args, ['why']);
  const bare = parseInvocation(copy, ['--from', 'a', '--to', 'b'], 'store copy');
  t.same(bare !== 'help' && bare.options.merge, false, 'a flag not given is false');
  t.equal(ran, 0, 'parsing runs nothing');
});

t.test('--help (or -h) anywhere asks for help, even beside a mistake', async (t) => {
  t.equal(parseInvocation(copy, ['--help'], 'store copy'), 'help');
  t.equal(parseInvocation(copy, ['--marge', '-h'], 'store copy'), 'help');
});

t.test('mistakes are usage errors that name the mistake and what was probably meant', async (t) => {
  t.equal(usageError(['--from', 'a', '--to', 'b', '--marge']), 'unknown option --marge (did you mean --merge?)');
  t.equal(usageError(['--from', 'a', '--to', 'b', '--orgs', 'x']), 'unknown option --orgs (did you mean --org?)');
  t.equal(usageError(['--from', 'a', '--to', 'b', '--zzzzzz']), 'unknown option --zzzzzz');
  t.equal(usageError(['--from', 'a', '--to', 'b', '-x']), 'unknown option -x');
  t.equal(usageError(['--from']), '--from needs a value (--from URL)');
  t.equal(usageError(['--from', '--to', 'b']), '--from needs a value (--from URL)');
  t.equal(usageError(['--from', 'a', '--to', 'b', '--merge=yes']), '--merge takes no value');
  t.equal(usageError(['--from', 'a', '--to', 'b', 'one', 'two']), 'unexpected argument "two"');
});

t.test('a missing required option or a wrong choice says just that (not a usage error)', async (t) => {
  t.equal(usageError(['--to', 'b']), 'not a usage error: --from and --to are required');
  t.equal(usageError(['--from', 'a', '--to', 'b', '--paper', 'a3']), 'not a usage error: --paper is letter or a4');
  t.equal(usageError(['--from', 'a', '--to', 'b', '--paper', 'leter']), 'not a usage error: --paper is letter or a4 (did you mean letter?)',
    'a typo of a choice names the likely one');
  const user = command({ name: 'emoji', summary: 's', options: { user: { type: 'string', description: 'd', required: true } }, run: () => {} });
  t.throws(() => parseInvocation(user, [], 'users emoji'), { message: '--user is required' });
  t.throws(() => parseInvocation(user, ['--user', ''], 'users emoji'), { message: '--user is required' }, 'empty is missing');
  const confirm = command({ name: 'rotate', summary: 's', options: { now: { type: 'flag', description: 'd', required: 'confirm with --now' } }, run: () => {} });
  t.throws(() => parseInvocation(confirm, [], 'keys rotate'), { message: 'confirm with --now' }, 'a required flag is a confirmation');
  t.not(parseInvocation(confirm, ['--now'], 'keys rotate'), 'help');
});

t.test('usage is generated from the same table', async (t) => {
  t.equal(synopsis(copy), 'copy [note] --from URL --to URL [--merge] [--users a,b] [--paper letter|a4] [--org SLUG]');
  const help = commandUsage(copy, 'store');
  t.match(help, /^Usage: lanyard store copy \[note\] --from URL --to URL/);
  for (const option of ['--from URL', '--to URL', '--merge', '--users a,b', '--paper letter|a4', '--org SLUG', '-h, --help']) {
    t.match(help, `\n  ${option}`, `${option} explained`);
  }
  t.match(help, /default: letter/);
});
