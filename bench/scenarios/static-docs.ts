import { FlowError } from '../http.js';
import { type Figure, runLoad } from '../load.js';
import type { Target } from '../target.js';

/** GET of a document every relying party fetches (discovery, the key set): the full body each time. */
export async function measureGet(t: Target, path: string, o: { seconds: number; concurrency: number }): Promise<Figure> {
  const once = async () => {
    const r = await t.http.request({ path });
    if (r.status !== 200) throw new FlowError(path, r.status);
  };
  await runLoad({ concurrency: o.concurrency, maxSeconds: Math.min(0.5, o.seconds / 4), run: once }); // warm-up
  return runLoad({ concurrency: o.concurrency, maxSeconds: o.seconds, run: once });
}
