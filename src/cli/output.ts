/** Where a command's lines go: standard output and error, unless a test collects them. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

export const STANDARD_OUTPUT: CommandOutput = {
  out: (line) => { process.stdout.write(`${line}\n`); },
  err: (line) => { process.stderr.write(`${line}\n`); },
};
