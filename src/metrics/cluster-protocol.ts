/**
 * The messages between a worker that was asked for /metrics on the main port and the primary, which alone
 * can gather every worker's metrics (cluster-primary.ts). prom-client's own messages (`type:
 * 'prom-client:…'`) travel on the same channel; these are told apart by their `lanyard` field.
 */

import { isLanyardMessage } from '../cluster/ipc-message.js';

export interface MetricsRequest { lanyard: 'metrics?'; id: number }
export type MetricsReply =
  | { lanyard: 'metrics'; id: number; text: string; contentType: string }
  | { lanyard: 'metrics'; id: number; error: string };

export const isMetricsRequest = (m: unknown): m is MetricsRequest => isLanyardMessage(m, 'metrics?') && typeof m.id === 'number';

export const isMetricsReply = (m: unknown): m is MetricsReply => isLanyardMessage(m, 'metrics') && typeof m.id === 'number';

/** The scrape could not be gathered in time (a worker or the primary did not answer): 503, try again. */
export class MetricsUnavailableError extends Error {
  static readonly RETRY_AFTER_SECONDS = 5;
  constructor(message: string) {
    super(message);
    this.name = 'MetricsUnavailableError';
  }
}
