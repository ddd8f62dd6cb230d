import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerFactory } from 'fastify';
import { type RequestObserver, responseTimeMs } from './request-log.js';

/** Answers one request completely and returns its status. */
export type EarlyAnswer = (req: IncomingMessage, res: ServerResponse) => number;

/** Who counts a hop of X-Forwarded-For as trusted (the same function Fastify is given). */
export type TrustProxy = ((address: string, hop: number) => boolean) | false;

const FAILED = JSON.stringify({ error: 'server_error', error_description: 'the document could not be made' });

interface FastifyTimeouts {
  http?: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

interface Attached {
  log: FastifyBaseLogger;
  observe: RequestObserver;
  nextRequestId: () => string;
  trustProxy: TrustProxy;
}

/**
 * GET and HEAD of a few documents every relying party fetches again and again (discovery, the key set),
 * answered from the server's `request` event before Fastify sees them (docs/performance.md). Fastify's request path —
 * its hooks, middie, routing, a child logger and reply object per request — costs several times what writing
 * a few kilobytes made once does, so these skip it and do only what every Lanyard response gets anyway: the
 * caller's headers (the security headers among them), one log line in the request log's shape, and the
 * metrics observer. Any other method or path, and every request once Lanyard is closing (Fastify's 503 with
 * Retry-After), goes to Fastify.
 *
 * Used through Fastify's documented `serverFactory` option; the server is made with the settings Fastify
 * would have given its own (timeouts, keep-alive, requests per socket).
 */
export class EarlyAnswers {
  readonly #byPath = new Map<string, EarlyAnswer>();
  #attached: Attached | undefined;
  #closing = false;

  readonly serverFactory: FastifyServerFactory = (fastify, options) => {
    const opts = options as unknown as FastifyTimeouts; // Fastify's options, its defaults filled in
    const server: Server = createServer(opts.http ?? {}, (req, res) => {
      if (!this.#answer(req, res)) void fastify(req, res);
    });
    server.keepAliveTimeout = opts.keepAliveTimeout;
    server.requestTimeout = opts.requestTimeout;
    server.setTimeout(opts.connectionTimeout);
    if (opts.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
  };

  /** Starts answering, once the app's logger exists; stops (hands everything to Fastify) when it closes. */
  attach(app: FastifyInstance, o: Omit<Attached, 'log'>): void {
    // The line's shape is fixed and holds nothing secret (the `req` serializer still redacts the URL's
    // credentials), so it skips the logger's generic redaction paths: over half of a line's cost.
    this.#attached = { ...o, log: app.log.child({}, { redact: [] }) };
    app.addHook('preClose', async () => {
      this.#closing = true;
    });
  }

  /** Answers GET and HEAD of exactly `path` (any query string) with `answer`. */
  get(path: string, answer: EarlyAnswer): void {
    this.#byPath.set(path, answer);
  }

  #answer(req: IncomingMessage, res: ServerResponse): boolean {
    const attached = this.#attached;
    if (!attached || this.#closing || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const answer = this.#byPath.get(path);
    if (!answer) return false;
    const started = process.hrtime.bigint();
    let statusCode: number;
    try {
      statusCode = answer(req, res); // HEAD: Node sends the headers (Content-Length too) and no body
    } catch (err) {
      // Thrown out of the server's request event it would end the process: answered here instead.
      attached.log.error({ err, path }, 'a document could not be answered');
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' }).end(FAILED);
      statusCode = 500;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const ip = attached.trustProxy ? proxyAddr(req, attached.trustProxy) : req.socket.remoteAddress;
    attached.log.info({
      reqId: attached.nextRequestId(),
      req: { method: req.method, url, ip },
      res: { statusCode },
      responseTime: responseTimeMs(seconds),
    }, 'request completed');
    attached.observe({ method: req.method, route: path, statusCode, seconds, aborted: false, event: undefined });
    return true;
  }
}
