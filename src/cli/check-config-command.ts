import { checkConfig } from '../config/config.js';
import { command } from './command.js';
import { STANDARD_OUTPUT } from './output.js';

/**
 * `lanyard check-config [file.json] [--production]`: every reason `serve` would refuse to start with this
 * environment and file, from the same function startup uses (config.ts checkConfig), so "valid" here means
 * serve starts.
 */
export const checkConfigCommand = command({
  name: 'check-config',
  summary: 'check a config file and the environment as serve would, and exit (non-zero with every problem found)',
  details: `Checks the file against config/schema.json and the environment variables (LANYARD_ISSUER, LANYARD_STORE,
LANYARD_COOKIE_KEYS, ...) as "lanyard serve" does. With NODE_ENV=production or --production it applies the production
rules too (docs/configuration.md → Production rules). Every problem is listed with its JSON path or variable; the exit status is then 78.`,
  args: [{ name: 'file.json', description: 'the file to check (default: LANYARD_CONFIG, else the demo configuration)' }],
  options: {
    production: { type: 'flag', description: 'apply the production rules, as NODE_ENV=production does' },
  },
  run: ({ args: [path], options }) => {
    const { config, problems, production } = checkConfig(undefined, { configPath: path, production: options.production });
    if (!config) {
      const rules = production ? ' (production rules)' : '';
      STANDARD_OUTPUT.err(`lanyard: serve would refuse to start${rules}, ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`);
      process.exitCode = 78; // EX_CONFIG, as serve
      return;
    }
    const clients = `${config.file.clients.length} client(s)`;
    if (config.production) {
      STANDARD_OUTPUT.out(`${config.configPath}: valid for production (${clients})`);
      return;
    }
    STANDARD_OUTPUT.out(`${config.configPath}: valid (${clients}); add --production to apply the production rules too`);
    for (const warning of config.warnings) STANDARD_OUTPUT.out(`warning: ${warning}`);
  },
});
