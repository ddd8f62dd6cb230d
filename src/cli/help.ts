import { type Command, type Entry, type Group, isGroup, type OptionSpec } from './command.js';

/** Usage texts, all generated from the command table: what --help prints is what the parser accepts. */

const WIDTH = 100;
const COLUMN = 30;

function optionWords(name: string, spec: OptionSpec): string {
  if (spec.type === 'flag') return `--${name}`;
  return `--${name} ${spec.choices ? spec.choices.join('|') : spec.placeholder ?? 'VALUE'}`;
}

/** `copy --from URL --to URL [--merge]`: arguments, then required options, then the optional ones. */
export function synopsis(cmd: Command): string {
  const words = [cmd.name];
  for (const arg of cmd.args ?? []) words.push(arg.required ? `<${arg.name}>` : `[${arg.name}]`);
  const options = Object.entries(cmd.options);
  for (const [name, spec] of options) if (spec.required) words.push(optionWords(name, spec));
  for (const [name, spec] of options) if (!spec.required) words.push(`[${optionWords(name, spec)}]`);
  return words.join(' ');
}

/** Words wrapped to the width, every line after the first indented. */
function wrap(text: string, indent: number, first = indent): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const room = WIDTH - (lines.length ? indent : first);
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** `  name          what it does`, the text on the next line when the name is too long for the column. */
function row(name: string, text: string): string {
  const left = `  ${name}`;
  if (left.length < COLUMN - 1) return `${left.padEnd(COLUMN)}${wrap(text, COLUMN, COLUMN)}\n`;
  return `  ${wrap(name, 4, 2)}\n${' '.repeat(COLUMN)}${wrap(text, COLUMN, COLUMN)}\n`;
}

function commandRows(prefix: string, commands: Command[]): string {
  return commands.map((cmd) => row(`${prefix}${synopsis(cmd)}`, cmd.summary)).join('');
}

/** `lanyard --help`: every command of every group. */
export function mainUsage(table: Entry[]): string {
  const rows = table.map((entry) => (isGroup(entry) ? commandRows(`${entry.name} `, entry.commands) : commandRows('', [entry])));
  return `Usage: lanyard <command> [options]\n\n${rows.join('')}\n`
    + 'Run "lanyard <command> --help" (e.g. "lanyard users emoji --help") for what a command does and its options.\n';
}

/** `lanyard users --help`: the group's commands. */
export function groupUsage(group: Group): string {
  return `Usage: lanyard ${group.name} <command>\n\n${wrap(group.summary, 0)}\n\n${commandRows('', group.commands)}\n`
    + `Run "lanyard ${group.name} <command> --help" for details.\n`;
}

/** `lanyard users emoji --help`: the command, its arguments and options. */
export function commandUsage(cmd: Command, groupName?: string): string {
  const path = groupName ? `${groupName} ${cmd.name}` : cmd.name;
  let text = `Usage: lanyard ${groupName ? `${groupName} ` : ''}${synopsis(cmd)}\n\n${wrap(cmd.summary, 0)}\n`;
  if (cmd.details) text += `\n${cmd.details.trim()}\n`;
  if (cmd.args?.length) text += `\nArguments:\n${cmd.args.map((a) => row(a.required ? `<${a.name}>` : `[${a.name}]`, a.description)).join('')}`;
  const options = Object.entries(cmd.options).map(([name, spec]) => {
    const notes = [spec.required ? 'required' : '', spec.default ? `default: ${spec.default}` : ''].filter(Boolean);
    return row(optionWords(name, spec), `${spec.description}${notes.length ? ` (${notes.join('; ')})` : ''}`);
  });
  text += `\nOptions:\n${options.join('')}${row('-h, --help', `print this help (lanyard ${path} --help)`)}`;
  return text;
}
