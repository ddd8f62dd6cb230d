import { ConfigError } from '../errors.js';
import { exitOnStartupError } from './startup-error.js';
import { UsageError } from './command.js';
import { COMMANDS } from './commands.js';
import { dispatch, usageLine } from './dispatch.js';

/** The `lanyard` command, once src/cli.ts has found Node new enough: run one command, report its failure. */
export async function main(argv: string[]): Promise<void> {
  // The store and the key-encryption key hold credentials: files Lanyard creates are the owner's only.
  process.umask(0o077);
  try {
    await dispatch(COMMANDS, argv);
  } catch (err) {
    if (err instanceof ConfigError) exitOnStartupError(err); // every problem, exit 78
    // A command that fails (a mistyped option, an unknown user) says just why, in one line.
    process.stderr.write(`lanyard: ${err instanceof UsageError ? usageLine(err) : err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
