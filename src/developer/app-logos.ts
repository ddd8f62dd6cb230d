import type { StoredClient } from '../../adapters/store.js';
import { type FetchedLogo, LogoFetcher } from '../clients/logo-fetcher.js';
import type { Edit } from './app-change.js';
import type { DeveloperDeps } from './deps.js';
import { ValidationError } from './errors.js';

/** An app's details as checked (src/developer/app-input.ts checkDetails). */
type Details = Partial<Pick<StoredClient, 'name' | 'description' | 'homepageUrl' | 'logoUrl'>>;

const FIELD_NAMES = { name: 'name', description: 'description', homepageUrl: 'homepage_url', logoUrl: 'logo_url' } as const;

/**
 * An app's logo as Lanyard keeps it (docs/security.md → App logos): fetched once, when its URL is set or
 * changed (or was never fetched), stored with the app, served from Lanyard's own origin. A logo that cannot be
 * fetched refuses the setting (`logo_url`), and nothing else of that change is saved.
 */
export class AppLogos {
  readonly #fetcher: LogoFetcher;

  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'> & Partial<Pick<DeveloperDeps, 'logos'>>) {
    this.#fetcher = deps.logos ?? new LogoFetcher();
  }

  /** Fetches a logo, or refuses the logo URL with the reason (logged as `app.logo_refused`). */
  async fetch(url: string): Promise<FetchedLogo> {
    const fetched = await this.#fetcher.fetch(url);
    if (!fetched.ok) {
      this.deps.log.info({ event: 'app.logo_refused', url, reason: fetched.message }, 'logo not fetched');
      throw new ValidationError([{ path: 'logo_url', message: fetched.message }]);
    }
    return fetched.logo;
  }

  /** The logo a details change needs fetched: a new or changed URL, or one never fetched. */
  needsFetch(client: StoredClient, change: Details): boolean {
    return !!change.logoUrl && (client.logoUrl !== change.logoUrl || !client.logoHash);
  }

  store(clientId: string, logo: FetchedLogo): Promise<void> {
    return this.deps.store.putClientLogo({
      clientId, hash: logo.hash, contentType: logo.contentType, bytes: logo.bytes, sourceUrl: logo.url, fetchedAt: this.deps.clock.now().toISOString(),
    });
  }

  /**
   * The edit a details change makes, with its logo (`logo`, fetched already, or none): the new logo stored
   * before the app names it, the ones it no longer names removed after (both under the app's lock).
   * undefined when nothing changes.
   */
  detailsEdit(client: StoredClient, change: Details, logo: FetchedLogo | undefined): Edit | undefined {
    const logoHash = logo ? logo.hash : change.logoUrl === undefined && 'logoUrl' in change ? undefined : client.logoHash;
    const changed = (Object.keys(change) as (keyof Details)[]).filter((k) => client[k] !== change[k]);
    const logoChanged = logoHash !== client.logoHash;
    if (changed.length === 0 && !logoChanged) return undefined;
    const detail: Record<string, string> = {};
    for (const k of changed) detail[FIELD_NAMES[k]] = change[k] ?? '(cleared)';
    if (logoChanged) detail.logo_sha256 = logoHash ?? '(cleared)';
    const { clientId } = client;
    return {
      client: { ...client, ...change, logoHash },
      action: 'app.details_changed',
      detail,
      ...(logo ? { before: () => this.store(clientId, logo) } : {}),
      ...(logoChanged ? { after: async () => { await this.deps.store.pruneClientLogos(clientId, logoHash); } } : {}),
    };
  }
}

