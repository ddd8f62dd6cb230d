import { Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

/** How long requests already in flight get to finish when Lanyard stops. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** The longest a worker being replaced (a reload) goes on answering its kept-alive connections before it closes. */
export const DRAIN_MS = 2_000;

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

/**
 * Before a worker that is being replaced closes (a reload: src/cluster/reload.ts). It stops taking new
 * connections, which the other workers take, and for up to `ms` answers every request on the connections it
 * still has with `Connection: close`, so that each client moves to a new connection after a response of its
 * own, rather than have an idle kept-alive connection closed under a request it is just sending (a reset
 * no client retries for a POST). Resolves once no connection is left, or after `ms`; closeGracefully follows.
 */
export async function drain(app: FastifyInstance, ms = DRAIN_MS): Promise<void> {
  // net.Server's close, not http.Server's: that one would close the idle kept-alive connections now, under
  // whatever request is on its way on them.
  Server.prototype.close.call(app.server);
  app.server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
  const open = () => new Promise<number>((resolve) => app.server.getConnections((err, n) => resolve(err ? 0 : n)));
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && (await open()) > 0) await sleep(50);
}
