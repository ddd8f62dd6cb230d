import type { FastifyInstance } from 'fastify';

/** How long requests already in flight get to finish when Lanyard stops. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** What a request arriving while Lanyard stops is told: another instance (or this one, restarted) soon. */
export const CLOSING_RETRY_AFTER_SECONDS = 5;

/**
 * Stops the server gracefully, but not forever: `app.close()` stops accepting connections and closes idle
 * keep-alive ones, yet a browser that keeps sending requests on a busy keep-alive connection (a badge
 * scanner posting again and again) would hold it open indefinitely. After the grace period every remaining
 * connection is cut, so a deploy or Ctrl-C always completes. Returns whether connections had to be cut.
 *
 * A request that arrives on a kept-alive connection meanwhile is answered 503 by Fastify
 * (return503OnClosing), written straight to the socket: it gets its Retry-After here, first, so that a
 * client knows to come back rather than take it for a failure.
 */
export async function closeGracefully(app: FastifyInstance, graceMs = SHUTDOWN_GRACE_MS): Promise<boolean> {
  app.server.prependListener('request', (_req, res) => res.setHeader('Retry-After', String(CLOSING_RETRY_AFTER_SECONDS)));
  let cut = false;
  const timer = setTimeout(() => {
    cut = true;
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
  return cut;
}
