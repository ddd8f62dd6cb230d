import { ENV_DEFAULTS } from './defaults.js';
import type { Env } from './env.js';

/**
 * Where Prometheus metrics are served, from LANYARD_METRICS_TOKEN, LANYARD_METRICS_PORT and
 * LANYARD_METRICS_HOST (docs/operations.md → Metrics). Parsed here, called by src/config/config.ts (the only reader of the
 * environment), which hands over the variables.
 *
 * - LANYARD_METRICS_PORT set: served on that port (on LANYARD_METRICS_HOST, default 127.0.0.1), never on the
 *   main one: a port that only the scraper can reach is the simplest protection.
 * - LANYARD_METRICS_TOKEN set: every scrape needs `Authorization: Bearer <token>`, wherever it is served.
 * - neither: open on the main port in development; off (404) in production, where request counts and
 *   timings are nobody's business but the operator's.
 */
export interface MetricsConfig {
  /** `/metrics` on the main port: `open`, `token` (bearer token required) or `off` (404). */
  mainPort: 'open' | 'token' | 'off';
  /** A port of its own (0: any free port, for tests); undefined when not set. */
  port?: number | undefined;
  /** The address the metrics port listens on. */
  host: string;
  /** The bearer token a scrape must present, when set. */
  token?: string | undefined;
}

const MIN_TOKEN_LENGTH = 32;
/** RFC 6750 §2.1 b64token: what can be sent in `Authorization: Bearer` as it is. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The metrics settings; each problem names its variable, as config.ts does for the others. */
export function parseMetricsConfig(env: Env, production: boolean, mainPort: number, problems: string[]): MetricsConfig {
  const token = env.LANYARD_METRICS_TOKEN || undefined;
  if (token !== undefined && (token.length < MIN_TOKEN_LENGTH || !B64TOKEN.test(token))) {
    problems.push(`LANYARD_METRICS_TOKEN: must be at least ${MIN_TOKEN_LENGTH} characters of letters, digits and -._~+/ (openssl rand -base64 32)`);
  }
  const port = parsePort(env.LANYARD_METRICS_PORT, mainPort, problems);
  const host = env.LANYARD_METRICS_HOST || ENV_DEFAULTS.metricsHost;
  if (env.LANYARD_METRICS_HOST && port === undefined) {
    problems.push('LANYARD_METRICS_HOST: only used with LANYARD_METRICS_PORT; set that too (or unset this)');
  }
  const mainPortMode = port !== undefined ? 'off' : token ? 'token' : production ? 'off' : 'open';
  return { mainPort: mainPortMode, port, host, token };
}

function parsePort(value: string | undefined, mainPort: number, problems: string[]): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    problems.push(`LANYARD_METRICS_PORT: "${value}" is not a port number (0-65535)`);
    return undefined;
  }
  if (port !== 0 && port === mainPort) {
    problems.push(`LANYARD_METRICS_PORT: ${port} is PORT too; choose another port for metrics (or unset it to serve them on PORT)`);
  }
  return port;
}

/** What the startup log says when metrics are served nowhere: how to turn them on. */
export function metricsOffNote(config: MetricsConfig): string | undefined {
  if (config.mainPort !== 'off' || config.port !== undefined) return undefined;
  return 'metrics are off in production: set LANYARD_METRICS_PORT (a port of their own, on 127.0.0.1 unless LANYARD_METRICS_HOST says otherwise) or LANYARD_METRICS_TOKEN (a bearer token for /metrics on this port) to serve them (docs/operations.md → Metrics)';
}
