/** `--name value` and `--flag` options of the `lanyard` command. */
export function cliOptions(args: string[]): { flags: Set<string>; values: Map<string, string> } {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"`);
    const next = args[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      values.set(arg.slice(2), next);
      i += 1;
    } else {
      flags.add(arg.slice(2));
    }
  }
  return { flags, values };
}

export function requireOption(values: Map<string, string>, name: string): string {
  const value = values.get(name);
  if (!value) throw new Error(`--${name} is required`);
  return value;
}
