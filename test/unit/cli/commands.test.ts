import t from 'tap';
import { type Command, isGroup } from '../../../src/cli/command.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import { commandUsage, groupUsage, mainUsage } from '../../../src/cli/help.js';
import { parseInvocation } from '../../../src/cli/parse.js';

const all: [string, Command][] = COMMANDS.flatMap((e) => (isGroup(e) ? e.commands.map((c): [string, Command] => [`${e.name} ${c.name}`, c]) : [[e.name, e] as [string, Command]]));

t.test('every command of the table has --help, listed in lanyard --help with its options', async (t) => {
  const main = mainUsage(COMMANDS);
  for (const [path, cmd] of all) {
    t.equal(parseInvocation(cmd, ['--help'], path), 'help', `${path} --help`);
    t.match(main, `  ${path}`, `${path} in lanyard --help`);
    const usage = commandUsage(cmd, path.includes(' ') ? path.split(' ')[0] : undefined);
    t.match(usage, `Usage: lanyard ${path}`, `${path}: usage line`);
    for (const name of Object.keys(cmd.options)) t.match(usage, `--${name}`, `${path}: --${name} explained`);
  }
  for (const group of COMMANDS.filter(isGroup)) {
    const usage = groupUsage(group);
    for (const cmd of group.commands) t.match(usage, `\n  ${cmd.name}`, `${group.name} --help lists ${cmd.name}`);
  }
  t.ok(all.length >= 12, 'every command is in the table');
});

t.test('command names are unique, and no option is named help', async (t) => {
  const paths = all.map(([p]) => p);
  t.same([...new Set(paths)], paths);
  for (const [path, cmd] of all) t.notOk('help' in cmd.options, `${path} leaves --help to the parser`);
});

t.test('badges print passes --types on as a list', async (t) => {
  const print = all.find(([p]) => p === 'badges print')![1];
  const parsed = parseInvocation(print, ['--org', 'school', '--types', 'student, employee'], 'badges print');
  t.same(parsed !== 'help' && parsed.options, { org: 'school', users: undefined, types: ['student', 'employee'], paper: 'letter', out: undefined });
});
