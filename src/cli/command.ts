/**
 * The shape of the `lanyard` command's table: each command says its options and arguments once, and the
 * parser (parse.ts), the help (help.ts) and the dispatcher (run.ts) all read them from here. A new command is
 * one entry in its group's file (src/cli/<group>-command.ts).
 */

export interface OptionSpec {
  /** `string` takes a value (`--org SLUG`); `list` a comma-separated one (`--users a,b`); `flag` none. */
  type: 'string' | 'list' | 'flag';
  /** Shown in the usage: `--org SLUG`. */
  placeholder?: string;
  description: string;
  /** Refused when missing (a required flag is a confirmation); a string is the message that says so (default "--name is required"). */
  required?: true | string;
  /** Allowed values (a string option); anything else is refused with "--name is a or b". */
  choices?: readonly string[];
  default?: string;
}

export interface ArgumentSpec {
  name: string;
  description: string;
  required?: boolean;
}

export type Options = Record<string, OptionSpec>;

/** The parsed values, typed from the options' specs. */
export type Values<O extends Options> = {
  [K in keyof O]: O[K]['type'] extends 'flag' ? boolean
    : O[K]['type'] extends 'list' ? string[] | undefined
      : O[K] extends { required: true | string } | { default: string } ? string : string | undefined;
};

export interface Invocation<O extends Options> {
  options: Values<O>;
  /** The positional arguments, in the order of `args`. */
  args: (string | undefined)[];
}

export interface Command<O extends Options = Options> {
  name: string;
  /** One line, for the list of commands. */
  summary: string;
  /** More, for `--help` on the command (paragraphs, already wrapped). */
  details?: string;
  args?: readonly ArgumentSpec[];
  options: O;
  run(invocation: Invocation<O>): Promise<void> | void;
}

export interface Group {
  name: string;
  summary: string;
  commands: Command[];
}

export type Entry = Command | Group;

export const isGroup = (entry: Entry): entry is Group => 'commands' in entry;

/** Declares a command; its `run` sees the options typed from their specs. */
export function command<const O extends Options>(spec: Command<O>): Command {
  return spec as unknown as Command;
}

/** A mistake in how the command was called: printed as one line with a hint, exit 1. */
export class UsageError extends Error {
  constructor(message: string, readonly helpFor?: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Options many commands share. */
export const ORG_OPTION = { type: 'string', placeholder: 'SLUG', description: 'the organisation (its slug)', required: true } as const;
export const JSON_OPTION = { type: 'flag', description: 'print JSON instead of a table' } as const;
