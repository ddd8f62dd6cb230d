/**
 * The messages between the primary, which alone can gather every worker's metrics (cluster-primary.ts), and
 * the workers: the primary asks each for its registry; a worker asked for /metrics on the main port asks
 * the primary for the sum; a worker replaced by a reload hands over its final counts. They are told apart
 * from Lanyard's other messages on the channel by their `lanyard` field.
 */

import { isLanyardMessage } from '../process/ipc-message.js';

export interface MetricsRequest { lanyard: 'metrics?'; id: number }
export type MetricsReply =
  | { lanyard: 'metrics'; id: number; text: string; contentType: string }
  | { lanyard: 'metrics'; id: number; error: string };

/** A registry's metrics as prom-client's getMetricsAsJSON() gives them (what AggregatorRegistry.aggregate adds up). */
export type RegistryJson = object[];

/** Primary → worker: your registry, please (to be added up with the others'). */
export interface RegistryRequest { lanyard: 'registry?'; id: number }
export interface RegistryReply { lanyard: 'registry'; id: number; metrics: RegistryJson; error?: string }
/** Worker → primary: it answers registry requests from now on (a worker still starting is not asked). */
export const REGISTRY_READY = { lanyard: 'registry-ready' } as const;
export const isRegistryReady = (m: unknown): boolean => isLanyardMessage(m, REGISTRY_READY.lanyard);
/**
 * Worker → primary, as a worker that a reload replaced stops: its counters and histograms, which the
 * primary carries into every later sum once the worker is gone, so that a reload never makes a counter go
 * down. Until then the worker answers registry requests with these same counts.
 */
export interface FinalCounts { lanyard: 'final-counts'; metrics: RegistryJson }

export const isRegistryRequest = (m: unknown): m is RegistryRequest => isLanyardMessage(m, 'registry?') && typeof m.id === 'number';
export const isRegistryReply = (m: unknown): m is RegistryReply => isLanyardMessage(m, 'registry') && typeof m.id === 'number' && Array.isArray(m.metrics);
export const isFinalCounts = (m: unknown): m is FinalCounts => isLanyardMessage(m, 'final-counts') && Array.isArray(m.metrics);

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
