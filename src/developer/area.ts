import type { DeveloperAccount } from '../../adapters/store.js';
import type { AreaFrame } from '../web/area/area-frame.js';
import { SignedInArea } from '../web/area/signed-in-area.js';
import type { DeveloperDeps } from './deps.js';
import { ForbiddenError } from './errors.js';
import { M } from './pages/account-messages.js';
import { HOME, safeNext } from './pages/account-next.js';

/**
 * The developer area as a signed-in area (src/web/area/): its sessions end after 30 minutes without a request
 * and 12 hours after sign-in; its cookies live on /developer. One instance per set of dependencies.
 */
export const DEVELOPER_PATH = '/developer';
export const IDLE_SECONDS = 30 * 60;
export const ABSOLUTE_SECONDS = 12 * 60 * 60;

const areas = new WeakMap<DeveloperDeps, SignedInArea<DeveloperAccount>>();

export function area(deps: DeveloperDeps): SignedInArea<DeveloperAccount> {
  let made = areas.get(deps);
  if (!made) {
    made = new SignedInArea<DeveloperAccount>({
      name: 'developer',
      path: DEVELOPER_PATH,
      signInPath: '/developer/sign-in',
      home: HOME,
      safeNext,
      idleSeconds: IDLE_SECONDS,
      absoluteSeconds: ABSOLUTE_SECONDS,
      account: (id) => deps.store.findDeveloper(id),
      csrfRefused: () => new ForbiddenError(M.csrfRefused),
      cookieKeys: deps.cookieKeys,
      keyEncryptionKey: deps.keyEncryptionKey,
      secureCookies: deps.secureCookies,
      store: deps.store,
      clock: deps.clock,
    });
    areas.set(deps, made);
  }
  return made;
}

export type DeveloperNav = 'apps' | 'sandbox' | 'account' | 'docs';

/** The area's menu: Apps, Sandbox, Account, Guide (and Sign out). */
export const DEVELOPER_FRAME: AreaFrame<DeveloperNav> = {
  label: 'Developer area',
  brand: { href: DEVELOPER_PATH, sub: 'for developers' },
  nav: [
    { id: 'apps', label: 'Apps', href: '/developer' },
    { id: 'sandbox', label: 'Sandbox', href: '/developer/sandbox' },
    { id: 'account', label: 'Account', href: '/developer/account' },
    { id: 'docs', label: 'Guide', href: '/docs' },
  ],
  signOut: '/developer/sign-out',
};
