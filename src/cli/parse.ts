import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { type Command, type Invocation, type Options, UsageError } from './command.js';
import { didYouMean } from './did-you-mean.js';

const HELP = { type: 'boolean', short: 'h' } as const;

/** node's parseArgs configuration for a command's options, plus --help (-h) that every command has. */
function parseArgsOptions(options: Options): ParseArgsOptionsConfig {
  const config: ParseArgsOptionsConfig = { help: HELP };
  for (const [name, spec] of Object.entries(options)) config[name] = { type: spec.type === 'flag' ? 'boolean' : 'string' };
  return config;
}

/**
 * Parses a command's arguments against its table entry with node's `util.parseArgs` in strict mode: an
 * unknown option, a missing value, a value given to a flag or an extra argument is a UsageError that names
 * the mistake (and the option probably meant). Returns "help" when --help (or -h) is anywhere.
 */
export function parseInvocation(cmd: Command, argv: string[], path: string): Invocation<Options> | 'help' {
  const options = parseArgsOptions(cmd.options);
  const maxArgs = cmd.args?.length ?? 0;
  // A first, lenient pass only to find --help and to explain what the strict pass refuses.
  const tokens = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true }).tokens as Token[];
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help')) return 'help';

  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    // No option is `multiple`, so every value is a string or a boolean.
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: maxArgs > 0 }) as typeof parsed;
  } catch (err) {
    throw new UsageError(explain(cmd, tokens, path) ?? (err as Error).message, path);
  }
  if (parsed.positionals.length > maxArgs) {
    throw new UsageError(`unexpected argument "${parsed.positionals[maxArgs]}"`, path);
  }
  cmd.args?.forEach((arg, i) => {
    if (arg.required && !parsed.positionals[i]) throw new UsageError(`${path} needs <${arg.name}>`, path);
  });

  const values: Record<string, string | string[] | boolean | undefined> = {};
  for (const [name, spec] of Object.entries(cmd.options)) {
    const given = parsed.values[name];
    const text = typeof given === 'string' && given !== '' ? given : undefined;
    // Just the reason, no usage: the command was right, a value (or a confirmation) is missing.
    if (given !== true && text === undefined && spec.required) throw new Error(typeof spec.required === 'string' ? spec.required : `--${name} is required`);
    if (spec.type === 'flag') {
      values[name] = given === true;
      continue;
    }
    if (text !== undefined && spec.choices && !spec.choices.includes(text)) {
      const guess = didYouMean(text, spec.choices);
      throw new Error(`--${name} is ${spec.choices.join(' or ')}${guess ? ` (did you mean ${guess}?)` : ''}`);
    }
    values[name] = spec.type === 'list'
      ? text?.split(',').map((v) => v.trim()).filter(Boolean)
      : text ?? spec.default;
  }
  return { options: values as Invocation<Options>['options'], args: cmd.args?.map((_, i) => parsed.positionals[i]) ?? [] };
}

/** parseArgs' tokens (node:util), as far as this module reads them. */
type Token =
  | { kind: 'option'; name: string; rawName: string; value: string | undefined; inlineValue: boolean | undefined }
  | { kind: 'positional'; value: string }
  | { kind: 'option-terminator' };

/** What the strict parse refused, in the operator's terms. */
function explain(cmd: Command, tokens: Token[], path: string): string | undefined {
  for (const token of tokens) {
    if (token.kind === 'positional' && !cmd.args?.length) return `unexpected argument "${token.value}"`;
    if (token.kind !== 'option') continue;
    const spec = cmd.options[token.name];
    if (!spec) {
      const guess = token.rawName.startsWith('--') ? didYouMean(token.name, [...Object.keys(cmd.options), 'help']) : undefined;
      return `unknown option ${token.rawName}${guess ? ` (did you mean --${guess}?)` : ''}`
        + (Object.keys(cmd.options).length ? '' : ` (lanyard ${path} takes no options)`);
    }
    if (spec.type === 'flag' && token.value !== undefined) return `${token.rawName} takes no value`;
    if (spec.type !== 'flag' && (token.value === undefined || (!token.inlineValue && token.value.startsWith('-')))) {
      return `${token.rawName} needs a value${spec.placeholder ? ` (${token.rawName} ${spec.placeholder})` : ''}`;
    }
  }
  return undefined;
}
