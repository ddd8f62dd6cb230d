import { request } from 'undici';

/**
 * Lanyard runs in the bench with its Prometheus metrics on, served on a port of their own (as docs/operations.md
 * advises for production), and scraped every 15 seconds like Prometheus would, so their cost is in the
 * figures. The last scrape is also a cross-check of the bench's own counts (tokens issued, 5xx answers).
 */
export interface MetricsSummary {
  scrapes: number;
  failures: number;
  /** lanyard_tokens_issued_total by grant_type, at the end. */
  tokensIssued?: Record<string, number>;
  /** Sum of lanyard_http_requests_total, and of those with a 5xx status, at the end. */
  requests?: number;
  serverErrors?: number;
}

const SCRAPE_EVERY_MS = 15_000;

async function scrape(url: string): Promise<string> {
  const res = await request(url, { headersTimeout: 10_000, bodyTimeout: 10_000 });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  return text;
}

/** Reads the few series the report uses from the Prometheus text format. */
function summarise(text: string): Pick<MetricsSummary, 'tokensIssued' | 'requests' | 'serverErrors'> {
  const tokensIssued: Record<string, number> = {};
  let requests = 0;
  let serverErrors = 0;
  for (const line of text.split('\n')) {
    const m = /^(lanyard_tokens_issued_total|lanyard_http_requests_total)\{([^}]*)\} ([0-9.e+]+)$/.exec(line);
    if (!m) continue;
    const value = Number(m[3]);
    if (m[1] === 'lanyard_tokens_issued_total') {
      const grant = /grant_type="([^"]*)"/.exec(m[2]!)?.[1] ?? 'other';
      tokensIssued[grant] = (tokensIssued[grant] ?? 0) + value;
    } else {
      requests += value;
      if (/status="5\d\d"/.test(m[2]!)) serverErrors += value;
    }
  }
  return { tokensIssued, requests, serverErrors };
}

export function startScraper(url: string): { stop(): Promise<MetricsSummary> } {
  const summary: MetricsSummary = { scrapes: 0, failures: 0 };
  const once = async () => {
    try { await scrape(url); summary.scrapes += 1; } catch { summary.failures += 1; }
  };
  const timer = setInterval(() => void once(), SCRAPE_EVERY_MS);
  return {
    async stop() {
      clearInterval(timer);
      try {
        Object.assign(summary, summarise(await scrape(url)));
        summary.scrapes += 1;
      } catch {
        summary.failures += 1;
      }
      return summary;
    },
  };
}
