import { ENV_DEFAULTS } from './defaults.js';
import type { ClientConfig } from './schema.js';

/** The demo configuration's client, served by the Demo App (src/demo/demo-app.ts). */
export const DEMO_CLIENT_ID = 'demo-app';

/** LANYARD_DEMO_APP: whether the Demo App runs and, when a port is given, where it moves. */
export interface DemoAppSetting {
  on: boolean;
  /** Where the Demo App listens instead of its registered callback's port (8080 in config/demo.json). */
  port?: number | undefined;
}

/** `on` (the default), `off`, or a port number (1–65535, not Lanyard's own `PORT`) to move the Demo App to. */
export function parseDemoAppSetting(value: string | undefined, lanyardPort: number, problems: string[]): DemoAppSetting {
  if (value === undefined || value === '') value = ENV_DEFAULTS.demoApp;
  if (value === 'on') return { on: true };
  if (value === 'off') return { on: false };
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) {
    problems.push(`LANYARD_DEMO_APP: "${value}" must be on, off or the port to serve the Demo App on (1-65535)`);
  } else if (port === lanyardPort) {
    problems.push(`LANYARD_DEMO_APP: ${port} is Lanyard's own PORT; give the Demo App another one`);
  }
  return { on: true, port };
}

/**
 * The demo client with its callback and logout URL on `port`: the Demo App answers on the port its
 * registered callback names, so moving one moves the other (the file's clients are synced into the store at
 * every start, src/clients/config-clients.ts).
 */
export function movedDemoClient(clients: ClientConfig[], port: number): ClientConfig[] {
  const moved = (url: string) => {
    const u = new URL(url);
    u.port = String(port);
    return u.href;
  };
  return clients.map((c) => (c.client_id !== DEMO_CLIENT_ID ? c : {
    ...c,
    redirect_uris: c.redirect_uris.map(moved),
    ...(c.logout_url ? { logout_url: moved(c.logout_url) } : {}),
  }));
}
