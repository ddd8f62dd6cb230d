import type { FastifyInstance } from 'fastify';

/** How long requests already in flight get to finish when Lanyard stops. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops the server gracefully, but not forever: `app.close()` stops accepting connections and closes idle
 * keep-alive ones, yet a browser that keeps sending requests on a busy keep-alive connection (a badge
 * scanner posting again and again) would hold it open indefinitely. After the grace period every remaining
 * connection is cut, so a deploy or Ctrl-C always completes. Returns whether connections had to be cut.
 */
export async function closeGracefully(app: FastifyInstance, graceMs = SHUTDOWN_GRACE_MS): Promise<boolean> {
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
