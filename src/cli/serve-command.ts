import { exitOnStartupError } from './startup-error.js';
import { command } from './command.js';

/** `lanyard serve`: the identity provider itself. */
export const serveCommand = command({
  name: 'serve',
  summary: 'run the identity provider (configured by the environment and LANYARD_CONFIG: docs/configuration.md)',
  details: `Reads the environment (LANYARD_CONFIG, LANYARD_STORE, LANYARD_ISSUER, PORT, ...; docs/configuration.md → Configuration),
opens the store and listens. Without LANYARD_CONFIG it serves the demo configuration and the Demo App. On a
terminal it prints a short summary, then a line per request; otherwise JSON log lines (LANYARD_LOG_FORMAT).`,
  options: {},
  // Loaded only to serve: every other command (and --help) starts without the web server and the provider.
  // Anything that stops startup is reported as such (a configuration error exits 78).
  run: async () => {
    const { serve } = await import('../main.js');
    return serve().catch(exitOnStartupError);
  },
});
