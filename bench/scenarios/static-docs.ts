import { withServerCpu } from '../cpu.js';
import type { Figure } from '../load.js';
import { rawGetLoad } from '../raw-get.js';
import type { Target } from '../target.js';

/**
 * GET of a document every relying party fetches (discovery, the key set): the full body each time, from the
 * bench's lightest generator (raw-get.ts), so that the figure is the server's rather than the generator's.
 */
export async function measureGet(t: Target, path: string, o: { seconds: number; concurrency: number }): Promise<Figure> {
  await rawGetLoad(t.http.origin, path, { concurrency: o.concurrency, maxSeconds: Math.min(0.5, o.seconds / 4) }); // warm-up
  return withServerCpu(t.group, () => rawGetLoad(t.http.origin, path, { concurrency: o.concurrency, maxSeconds: o.seconds }));
}
