import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { providerRoute } from '../routes.js';

/**
 * One log line per request (docs/performance.md: every request used to be logged three times: Fastify's "incoming
 * request" and "request completed", and the provider's own line). The line is written when the response
 * is closed, whoever answered it (a Fastify route or oidc-provider behind middie), and it carries the
 * request's event when it has one (`token.issued`, `login.succeeded`, …), so the event costs no line of its
 * own. Events that matter beyond the request (warnings, errors) are still logged at once, on their own.
 */

export interface RequestEvent { event: string; [field: string]: unknown }
type Level = 'info' | 'warn';
interface Noted { fields: RequestEvent; msg: string; level: Level }

const NOTED = Symbol('lanyard.requestEvent');
/** Kept on the response: shims may hand oidc-provider a copy of the request (src/provider/internals.ts handOverBody), never of it. */
type WithEvent = ServerResponse & { [NOTED]?: Noted };

/** Something the whole app may observe about each answered request (the metrics, src/metrics/). */
export interface CompletedRequest {
  method: string;
  /**
   * The route's pattern (`/interaction/:uid/password`, `/oauth/authorize/:uid` for oidc-provider's), or
   * undefined when nothing answers the path (a 404): never a raw path, whose ids would be unbounded.
   */
  route: string | undefined;
  statusCode: number;
  seconds: number;
  /** The connection closed before the response was complete. */
  aborted: boolean;
  /** The request's noted event and its fields (`{ event: 'login.succeeded', method: 'emoji', … }`). */
  event: RequestEvent | undefined;
}
export type RequestObserver = (request: CompletedRequest) => void;

/** The line's `responseTime`: milliseconds, two decimals (as Fastify's own lines had). */
export const responseTimeMs = (seconds: number): number => Math.round(seconds * 1e5) / 100;

/**
 * Request ids in Fastify's own form (`req-1`, `req-2`, … in base 36), from one counter for Fastify (its
 * `genReqId`) and the documents answered before it (early-answers.ts), so that no two lines share one.
 */
export function requestIds(): () => string {
  let next = 0;
  return () => {
    next = next >= Number.MAX_SAFE_INTEGER ? 1 : next + 1;
    return `req-${next.toString(36)}`;
  };
}

/**
 * Notes the event of the request that `res` answers: it goes into the request's line. A second event in the
 * same request (rare) is logged at once on its own line through `log`.
 */
export function noteRequestEvent(res: ServerResponse, log: FastifyBaseLogger, fields: RequestEvent, msg: string, level: Level = 'info'): void {
  const r = res as WithEvent;
  if (r[NOTED]) {
    log[level](fields, msg);
    return;
  }
  r[NOTED] = { fields, msg, level };
}

/**
 * Logs every request once, when its response closes. Added first, before any other onRequest hook, so it
 * sees requests that the rate limiter or oidc-provider (mounted with middie in an onRequest hook) answer,
 * and hands each to `observe` (the metrics).
 */
export function logEachRequestOnce(app: FastifyInstance, observe: RequestObserver): void {
  app.addHook('onRequest', (request, reply, done) => {
    const started = process.hrtime.bigint();
    const { method } = request.raw; // before mount.ts turns a HEAD into a GET for the provider
    const res = reply.raw;
    res.once('close', () => {
      const noted = (res as WithEvent)[NOTED];
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const aborted = !res.writableFinished;
      const line = {
        ...noted?.fields,
        req: request,
        res: { statusCode: res.statusCode },
        responseTime: responseTimeMs(seconds),
        ...(aborted ? { aborted: true } : {}),
      };
      request.log[noted?.level ?? 'info'](line, noted?.msg ?? 'request completed');
      observe({
        method: method ?? 'GET',
        route: providerRoute(request.raw.url ?? '') ?? request.routeOptions.url,
        statusCode: res.statusCode,
        seconds,
        aborted,
        event: noted?.fields,
      });
    });
    done();
  });
}
