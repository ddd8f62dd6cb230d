import { withServerCpu } from '../cpu.js';
import type { Figure } from '../load.js';
import { measureRawGet } from '../raw-get.js';
import type { Target } from '../target.js';

/**
 * GET of a document every relying party fetches (discovery, the key set): the full body each time, from the
 * bench's lightest generator (raw-get.ts), so that the figure is the server's rather than the generator's.
 */
export function measureGet(t: Target, path: string, o: { seconds: number; concurrency: number }): Promise<Figure> {
  return measureRawGet(t.http.origin, path, o, (run) => withServerCpu(t.group, run));
}
