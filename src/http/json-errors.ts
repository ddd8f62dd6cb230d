import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreUnavailable, LanyardError, StoreUnavailableError, UNAVAILABLE_BODY } from '../errors.js';

/**
 * How a group of routes that answers programs says no: a JSON body `{ error, error_description }` with the
 * status that fits, never a stack trace (docs/architecture.md → Errors). Each group registers it on its own
 * scope (jsonErrors) — the user API, the developer API — with its own words, and may first describe the errors
 * only it knows (the developer API's field problems). A store failure is 503 with Retry-After, never 500
 * (docs/storage.md → When the store fails).
 */

export interface JsonErrorBody {
  error: string;
  error_description: string;
}

export function sendJsonError(reply: FastifyReply, status: number, body: JsonErrorBody): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').send(body);
}

/** The store failed: 503 with Retry-After and OAuth's word for it. */
export function sendUnavailableJson(reply: FastifyReply): FastifyReply {
  reply.header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS));
  return sendJsonError(reply, 503, UNAVAILABLE_BODY);
}

/** A store failure caught by an error handler: logged (never as an error of Lanyard's). */
export function logStoreUnavailable(err: unknown, req: FastifyRequest): void {
  req.log.warn({ event: 'store.unavailable', err: (err as Error).cause ?? err }, 'store unavailable: answered 503');
}

export interface JsonErrorOptions {
  /** How a 500 is logged: its event (none for the root's) and message. */
  log: { event?: string; message: string };
  /** What a 500 says. */
  serverError: string;
  /**
   * `lanyard`: a LanyardError that may be shown answers its own code and message, one that may not is a 500
   * (the developer API's contract). `oauth`: every 4xx is `invalid_request` with its message (the user API
   * and the root's machine endpoints, as RFC 6750 and RFC 6749 name errors).
   */
  codes: 'lanyard' | 'oauth';
  /** The errors only this group knows how to answer (validation with field problems, …); undefined for the rest. */
  describe?: (err: FastifyError, reply: FastifyReply) => FastifyReply | undefined;
}

/** An error answered the scope's JSON way (jsonErrors registers it; the root's negotiation uses it too). */
export function jsonErrorAnswer(o: JsonErrorOptions) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (isStoreUnavailable(err)) {
      logStoreUnavailable(err, req);
      return sendUnavailableJson(reply);
    }
    const described = o.describe?.(err, reply);
    if (described) return described;
    const fourXX = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500;
    if (o.codes === 'lanyard' && err instanceof LanyardError) {
      if (err.expose && fourXX) return sendJsonError(reply, err.statusCode, { error: err.code, error_description: err.message });
    } else if (fourXX) {
      // Fastify's own refusals (unreadable JSON, a body too large, an unsupported media type): the caller's doing.
      return sendJsonError(reply, err.statusCode!, { error: 'invalid_request', error_description: err.message });
    }
    req.log.error({ ...(o.log.event ? { event: o.log.event } : {}), err }, o.log.message);
    return sendJsonError(reply, 500, { error: 'server_error', error_description: o.serverError });
  };
}

/** The scope's error handler: the store failing → 503; the group's own errors; 4xx as `codes` says; anything else → 500, logged. */
export function jsonErrors(scope: FastifyInstance, o: JsonErrorOptions): void {
  scope.setErrorHandler(jsonErrorAnswer(o));
}
