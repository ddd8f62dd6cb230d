import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../adapters/store.js';
import type { AuditInput, AuditRecorder } from './audit-recorder.js';

/** A recorder that writes each event as it comes (until the batched AuditLog is wired in). */
export function unbatchedAudit(store: Pick<Store, 'appendAudit'>, log: FastifyBaseLogger): AuditRecorder {
  let pending: Promise<unknown> = Promise.resolve();
  return {
    record(event: AuditInput) {
      const at = event.at ?? new Date().toISOString();
      const id = `${at}-${randomBytes(6).toString('hex')}`;
      pending = pending.then(() => store.appendAudit([{ ...event, at, id, count: 1 }])).catch((err: unknown) => log.warn({ err }, 'audit event not written'));
    },
    flush: async () => { await pending; },
  };
}
