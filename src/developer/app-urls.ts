import type { StoredClient } from '../../adapters/store.js';
import { type Actor, OPERATOR } from './actor.js';
import { applyEdit, changeApp, type Edit, withAppLock } from './app-change.js';
import type { AppRecorder } from './app-history.js';
import type { AppSummary } from './app-summary.js';
import {
  callbackAdded, callbackRemoved, checkedCallback, checkedSettingUrl, urlSet, type UrlSetting,
} from './app-url-edits.js';
import type { DeveloperDeps } from './deps.js';
import { type ChangeKind, type LiveChanges, type ProposedChange, reviewed } from './live-changes.js';

/**
 * What a change to where codes or people are sent did: made at once (`client` as it now is), or, on a live
 * app, recorded for an operator's review (`proposal`; `client` unchanged): docs/developer-area.md → Changes
 * to a live app.
 */
export interface UrlChangeOutcome {
  client: StoredClient;
  proposal?: ProposedChange | undefined;
  /** The change was made while the app waited to go live: the request is taken back (status development). */
  liveRequestWithdrawn?: boolean | undefined;
}

/** The history action of a request to go live taken back because where codes are sent changed. */
export const LIVE_REQUEST_WITHDRAWN = 'app.live_request_withdrawn';

/**
 * An app's callback URLs, logout_url and initiate_login_uri (SPEC: client registration; OpenID Connect Core
 * §4). Additions and new values apply at once while the app is in development, take back a request to go
 * live while one waits, and wait for review once it is live (src/developer/live-changes.ts); removals and
 * clearing always apply at once.
 */
export class AppUrls {
  constructor(
    private readonly deps: Pick<DeveloperDeps, 'store' | 'clock'>,
    private readonly recorder: AppRecorder,
    readonly live: LiveChanges,
    private readonly getApp: (actor: Actor, clientId: string) => Promise<AppSummary>,
  ) {}

  async addCallback(actor: Actor, clientId: string, url: string): Promise<UrlChangeOutcome> {
    const checked = checkedCallback(url);
    return this.#applyOrPropose(actor, clientId, 'redirect_uri', checked, (client) => callbackAdded(client, checked));
  }

  removeCallback(actor: Actor, clientId: string, url: string): Promise<StoredClient> {
    return this.#change(actor, clientId, (client) => callbackRemoved(client, url));
  }

  /** Sets one of the app's single URLs after checking it, or clears it (undefined or ''), recording the change. */
  async setUrl(actor: Actor, clientId: string, url: string | undefined, setting: UrlSetting): Promise<UrlChangeOutcome> {
    const value = checkedSettingUrl(url, setting);
    if (value === undefined) return { client: await this.#change(actor, clientId, (client) => urlSet(client, setting, undefined)) };
    return this.#applyOrPropose(actor, clientId, setting.path, value, (client) => urlSet(client, setting, value));
  }

  /** Under the app's lock: the edit made now, or proposed for review when the app is live. */
  #applyOrPropose(actor: Actor, clientId: string, kind: ChangeKind, url: string, edit: (client: StoredClient) => Edit | undefined) {
    return withAppLock(this.deps.store, clientId, async (): Promise<UrlChangeOutcome> => {
      const { client } = await this.getApp(actor, clientId);
      if (reviewed(client, actor)) {
        // Nothing to review when the setting has this value already (the edit says so).
        if (kind !== 'redirect_uri' && !edit(client)) return { client };
        return { client, proposal: await this.live.propose(actor, client, kind, url) };
      }
      const edited = edit(client);
      if (!edited) return { client };
      // Waiting to go live, the operator reviews the app as it was asked for: a new place to send codes or
      // people takes the request back, so what is approved is always what was looked at.
      const withdraw = client.status === 'pending' && actor.id !== OPERATOR.id;
      const next = await applyEdit(this.deps, this.recorder, actor, clientId,
        withdraw ? { ...edited, client: { ...edited.client, status: 'development' } } : edited);
      if (withdraw) {
        await this.recorder.change(actor, clientId, LIVE_REQUEST_WITHDRAWN, { setting: kind }, LIVE_REQUEST_WITHDRAWN, 'request to go live taken back: where codes are sent changed');
      }
      return { client: next, liveRequestWithdrawn: withdraw };
    });
  }

  #change(actor: Actor, clientId: string, edit: (client: StoredClient) => Edit | undefined): Promise<StoredClient> {
    return changeApp(this.deps, this.recorder, actor, clientId, async () => (await this.getApp(actor, clientId)).client, edit);
  }
}
