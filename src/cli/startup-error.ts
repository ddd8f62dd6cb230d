import { ConfigError } from '../errors.js';

/**
 * Prints a configuration error the way an operator needs it and exits non-zero. Its own module: the `lanyard`
 * command reports errors with it without loading the server (src/main.ts).
 */
export function exitOnStartupError(err: unknown): never {
  if (err instanceof ConfigError) {
    process.stderr.write(`lanyard: ${err.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  process.stderr.write(`lanyard: startup failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
