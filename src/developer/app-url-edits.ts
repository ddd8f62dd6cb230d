import type { StoredClient } from '../../adapters/store.js';
import { checkUrl, type UrlKind } from '../clients/callback-url.js';
import type { Edit } from './app-change.js';
import { APP_LIMITS } from './app-input.js';
import { NotFoundError, ValidationError } from './errors.js';

/**
 * The changes to an app that decide where codes and people are sent (callback URLs, the logout_url, the
 * initiate_login_uri), as pure edits of the stored client: made at once on an app in development, and on a
 * live app when an operator approves them (src/developer/live-changes.ts). Each refusal is a
 * ValidationError on the field it is about.
 */

/** An app's single URLs (not callback URLs, which are a list): the field, how it is checked, and its name in inputs and history. */
export interface UrlSetting { field: 'logoutUrl' | 'initiateLoginUri'; kind: UrlKind; path: 'logout_url' | 'initiate_login_uri' }
export const URL_SETTINGS = {
  logoutUrl: { field: 'logoutUrl', kind: 'logout', path: 'logout_url' },
  initiateLoginUri: { field: 'initiateLoginUri', kind: 'initiateLogin', path: 'initiate_login_uri' },
} as const satisfies Record<string, UrlSetting>;

/** The setting a change's name (`logout_url`, `initiate_login_uri`) stands for. */
export const urlSettingOf = (path: UrlSetting['path']): UrlSetting =>
  (path === 'logout_url' ? URL_SETTINGS.logoutUrl : URL_SETTINGS.initiateLoginUri);

/** A callback URL as it will be stored, or a ValidationError saying what to change. */
export function checkedCallback(url: string): string {
  const checked = checkUrl(url, 'callback');
  if (!checked.ok) throw new ValidationError([{ path: 'redirect_uri', message: checked.message }]);
  return checked.url;
}

/** A single URL as it will be stored (undefined: cleared, for undefined or blank), or a ValidationError. */
export function checkedSettingUrl(url: string | undefined, setting: UrlSetting): string | undefined {
  if (url === undefined || url.trim() === '') return undefined;
  const checked = checkUrl(url, setting.kind);
  if (!checked.ok) throw new ValidationError([{ path: setting.path, message: checked.message }]);
  return checked.url;
}

/** Whether the callback URL can be added to this app as it is now (ValidationError otherwise). */
export function assertCallbackFits(client: StoredClient, url: string): void {
  if (client.redirectUris.includes(url)) {
    throw new ValidationError([{ path: 'redirect_uri', message: 'This callback URL is already registered.' }]);
  }
  if (client.redirectUris.length >= APP_LIMITS.callbacks) {
    throw new ValidationError([{ path: 'redirect_uri', message: `An app can have at most ${APP_LIMITS.callbacks} callback URLs: remove one first.` }]);
  }
}

export function callbackAdded(client: StoredClient, url: string): Edit {
  assertCallbackFits(client, url);
  return { client: { ...client, redirectUris: [...client.redirectUris, url] }, action: 'callback.added', detail: { url } };
}

export function callbackRemoved(client: StoredClient, url: string): Edit {
  if (!client.redirectUris.includes(url)) throw new NotFoundError('This callback URL is not registered for the app.');
  return { client: { ...client, redirectUris: client.redirectUris.filter((u) => u !== url) }, action: 'callback.removed', detail: { url } };
}

/** Sets (or, with undefined, clears) one of the app's single URLs; undefined when it is so already. */
export function urlSet(client: StoredClient, setting: UrlSetting, value: string | undefined): Edit | undefined {
  if (client[setting.field] === value) return undefined;
  return value
    ? { client: { ...client, [setting.field]: value }, action: `${setting.path}.set`, detail: { url: value } }
    : { client: { ...client, [setting.field]: undefined }, action: `${setting.path}.cleared`, detail: {} };
}
