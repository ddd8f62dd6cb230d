import { bearerCheck, challenge } from './metrics-auth.js';
import { MetricsUnavailableError } from './cluster-protocol.js';
import type { Exposition } from './metrics.js';

/**
 * The answer to a scrape, the same on the main port (Fastify, metrics-routes.ts) and on a port of its own
 * (node:http, metrics-server.ts): never cached, the bearer token checked when there is one, and 503 with
 * Retry-After when a cluster's metrics could not be gathered in time.
 */
export interface MetricsResponse { status: number; headers: Record<string, string>; body: string }

export const METRICS_PATH = '/metrics';

const json = (status: number, body: object, headers: Record<string, string> = {}): MetricsResponse => ({
  status,
  headers: { 'Cache-Control': 'no-store', 'Content-Type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

export type Scrape = () => Promise<Exposition>;

/** Answers scrapes from `scrape`, requiring `token` as a bearer token when it is set. */
export function metricsResponder(token: string | undefined, scrape: Scrape): (authorization: string | undefined) => Promise<MetricsResponse> {
  const refusal = token === undefined ? () => undefined : bearerCheck(token);
  return async (authorization) => {
    const refused = refusal(authorization);
    if (refused) {
      return json(401, { error: refused === 'missing' ? 'unauthorized' : 'invalid_token', error_description: 'metrics need Authorization: Bearer <LANYARD_METRICS_TOKEN>' }, { 'WWW-Authenticate': challenge(refused) });
    }
    try {
      const { text, contentType } = await scrape();
      return { status: 200, headers: { 'Cache-Control': 'no-store', 'Content-Type': contentType }, body: text };
    } catch (err) {
      if (!(err instanceof MetricsUnavailableError)) throw err;
      return json(503, { error: 'temporarily_unavailable', error_description: err.message }, { 'Retry-After': String(MetricsUnavailableError.RETRY_AFTER_SECONDS) });
    }
  };
}
