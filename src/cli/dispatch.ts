import { type Command, type Entry, isGroup, UsageError } from './command.js';
import { didYouMean } from './did-you-mean.js';
import { commandUsage, groupUsage, mainUsage } from './help.js';
import { parseInvocation } from './parse.js';

const out = (text: string): void => { process.stdout.write(text); };
const isHelp = (word: string | undefined): boolean => word === '--help' || word === '-h' || word === 'help';

/**
 * Finds the command an argument list names in the table, then prints its help or runs it:
 *   lanyard [--help | help [group [command]]]
 *   lanyard <command> [options] [--help]
 *   lanyard <group> [--help] | <group> <command> [options] [--help]
 */
export async function dispatch(table: Entry[], argv: string[]): Promise<void> {
  const [first, second, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h') return out(mainUsage(table));
  if (first === 'help') return out(helpFor(table, argv.slice(1)));
  if (first.startsWith('-')) throw new UsageError(`unknown option ${first} (options come after the command)`, '');

  const entry = find(table, first, 'command', '');
  if (!isGroup(entry)) return runCommand(entry, argv.slice(1), entry.name);
  if (isHelp(second)) return out(groupUsage(entry));
  if (second === undefined) throw new UsageError(`${entry.name} needs a command (${entry.commands.map((c) => c.name).join(', ')})`, entry.name);
  if (second.startsWith('-')) throw new UsageError(`${entry.name} needs a command before its options (${entry.commands.map((c) => c.name).join(', ')})`, entry.name);
  const cmd = find(entry.commands, second, `${entry.name} command`, entry.name);
  return runCommand(cmd, rest, `${entry.name} ${cmd.name}`, entry.name);
}

async function runCommand(cmd: Command, args: string[], path: string, groupName?: string): Promise<void> {
  const invocation = parseInvocation(cmd, args, path);
  if (invocation === 'help') return out(commandUsage(cmd, groupName));
  await cmd.run(invocation);
}

function find<T extends Entry>(entries: T[], name: string, what: string, helpFor: string): T {
  const found = entries.find((e) => e.name === name);
  if (found) return found;
  const guess = didYouMean(name, entries.map((e) => e.name));
  throw new UsageError(`unknown ${what} "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}`, helpFor);
}

/** `lanyard help users emoji`: the same texts as --help. */
function helpFor(table: Entry[], path: string[]): string {
  const [groupName, commandName] = path;
  if (groupName === undefined) return mainUsage(table);
  const entry = find(table, groupName, 'command', '');
  if (!isGroup(entry)) return commandUsage(entry);
  if (commandName === undefined) return groupUsage(entry);
  return commandUsage(find(entry.commands, commandName, `${entry.name} command`, entry.name), entry.name);
}

/** The one line printed for a UsageError: the mistake, then where the right usage is. */
export function usageLine(err: UsageError): string {
  return `${err.message}; see lanyard ${err.helpFor ? `${err.helpFor} ` : ''}--help`;
}
