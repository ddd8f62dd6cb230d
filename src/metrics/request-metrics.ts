import { Counter, type Registry } from 'prom-client';
import type { CompletedRequest, RequestObserver } from '../http/request-log.js';
import { CheapHistogram } from './cheap-histogram.js';

/**
 * What every answered request adds to the metrics (src/http/request-log.ts calls the observer when the
 * response closes). Every label value comes from a fixed set or a route pattern, so the number of series is
 * bounded whatever clients send: an unknown method or grant type is `other`, a path nothing answers is
 * `unmatched`. No label ever carries an id, a username or anything a client typed.
 */

/** Known methods, by index (`other` last): a request's series is found by numbers, not by a string built for it. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'];
const METHOD_INDEX = new Map(METHODS.map((m, i) => [m, i]));
const OTHER_METHOD = METHODS.length - 1;
/** The grant types of /oauth/token (discovery's grant_types_supported, implicit aside); anything else is `other`. */
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);
/** Ways to sign in (src/accounts/login-throttle.ts `Factor`). */
const SIGN_IN_METHODS = new Set(['password', 'emoji', 'badge', 'help_code']);
const SIGN_IN_RESULTS: Record<string, string> = {
  'login.succeeded': 'succeeded',
  'login.failed': 'failed',
  'login.throttled': 'throttled',
  'login.busy': 'busy',
};

/** What nothing answered (a 404 outside every route): one series, not one per path tried. */
const UNMATCHED_ROUTE = 'unmatched';

/** From 1 ms (a cached discovery document) to 10 s (argon2 under a sign-in storm, a slow store). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const oneOf = (value: unknown, allowed: Set<string>): string =>
  typeof value === 'string' && allowed.has(value) ? value : 'other';

type RequestLabels = { method: string; route: string; status: string };

export function requestObserver(registry: Registry): RequestObserver {
  // Every request counts here, so in plain numbers (route → status and method → count, no string built per
  // request), handed to prom-client only when scraped: its inc() builds and hashes a labels object per call.
  const counted = new Map<string, Map<number, { labels: RequestLabels; n: number }>>();
  new Counter({
    name: 'lanyard_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    collect() {
      for (const byStatusAndMethod of counted.values()) {
        for (const entry of byStatusAndMethod.values()) {
          if (entry.n === 0) continue;
          this.inc(entry.labels, entry.n);
          entry.n = 0;
        }
      }
    },
  });
  const count = (method: string, route: string, statusCode: number) => {
    let byStatusAndMethod = counted.get(route);
    if (!byStatusAndMethod) counted.set(route, byStatusAndMethod = new Map());
    const m = METHOD_INDEX.get(method) ?? OTHER_METHOD;
    const key = statusCode * METHODS.length + m;
    const entry = byStatusAndMethod.get(key);
    if (entry) entry.n += 1;
    else byStatusAndMethod.set(key, { labels: { method: METHODS[m]!, route, status: String(statusCode) }, n: 1 });
  };
  const latency = new CheapHistogram({
    name: 'lanyard_http_request_duration_seconds',
    help: 'Time from receiving a request to its response closing, by route pattern.',
    labelName: 'route',
    buckets: LATENCY_BUCKETS,
    registry,
  });
  const throttled = new Counter({
    name: 'lanyard_http_throttled_requests_total',
    help: 'Requests refused with 429 Too Many Requests (rate limits and sign-in throttling), by route pattern.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const signIns = new Counter({
    name: 'lanyard_sign_ins_total',
    help: 'Sign-in attempts at the hosted login, by method (password, emoji, badge) and result (succeeded, failed, throttled, busy: turned away while the machine was saturated).',
    labelNames: ['method', 'result'] as const,
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'lanyard_tokens_issued_total',
    help: 'Successful token endpoint responses, by grant type.',
    labelNames: ['grant_type'] as const,
    registers: [registry],
  });

  return (r: CompletedRequest) => {
    const route = r.route ?? UNMATCHED_ROUTE;
    count(r.method, route, r.statusCode);
    latency.observe(route, r.seconds);
    if (r.statusCode === 429) throttled.inc({ route });
    const event = r.event;
    if (!event) return;
    const result = SIGN_IN_RESULTS[event.event];
    if (result) signIns.inc({ method: oneOf(event.method, SIGN_IN_METHODS), result });
    else if (event.event === 'token.issued') tokens.inc({ grant_type: oneOf(event.grantType, GRANT_TYPES) });
  };
}
