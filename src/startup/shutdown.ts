import type { FastifyInstance } from 'fastify';
import type { Store } from '../../adapters/store.js';
import type { AuditLog } from '../audit/audit-log.js';
import { closeGracefully, drain } from '../http/graceful-close.js';
import { flushLog } from '../logging.js';

/** Why the process stops, as its log line says it, and what this stop needs besides the usual. */
export interface StopReason {
  /** The log line's fields (`event`, `signal`, `reason`, …) and message. */
  line: Record<string, unknown>;
  message: string;
  /** A worker being replaced (a reload) drains its kept-alive connections first (graceful-close.ts drain). */
  drain?: boolean;
  /** After the server has closed, before the store does: a replaced worker hands its counts to the primary. */
  afterClose?: () => Promise<void>;
}

/**
 * The one way a serving process stops (src/main.ts alone, src/cluster/worker.ts as a worker): once, however
 * many signals come; its line written at once (a second signal, or the primary's kill of a worker that
 * overstays its grace, would end the process before later lines); `beforeClose` (the sweeper stopped);
 * connections drained when asked, then closed with a grace period; the audit events still waiting written
 * (the requests that recorded them are over); the store closed; exit 0.
 */
export function stopOnce(o: {
  app: FastifyInstance; store: Pick<Store, 'close'>; audit: Pick<AuditLog, 'close'>; beforeClose?: () => void;
}): (why: StopReason) => Promise<void> {
  let stopping = false;
  return async (why) => {
    if (stopping) return;
    stopping = true;
    o.app.log.info(why.line, why.message);
    flushLog(o.app.log);
    o.beforeClose?.();
    if (why.drain) await drain(o.app);
    if (await closeGracefully(o.app)) o.app.log.warn({ event: 'shutdown.connections_cut' }, 'requests still open after the grace period were cut');
    await why.afterClose?.();
    await o.audit.close();
    await o.store.close();
    process.exit(0);
  };
}
