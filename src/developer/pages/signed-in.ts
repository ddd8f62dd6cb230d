import type { DeveloperAccount } from '../../../adapters/store.js';
import { areaLayout } from '../../web/area/area-frame.js';
import type { AreaSignedIn } from '../../web/area/signed-in-area.js';
import type { Raw } from '../../web/html.js';
import { DEVELOPER_FRAME, type DeveloperNav } from '../area.js';

/** A developer signed in to the developer area in this browser (src/developer/area.ts). */
export type SignedIn = AreaSignedIn<DeveloperAccount>;

/** The developer area's page frame (src/web/area/area-frame.ts) with its menu: Apps, Sandbox, Account, Guide. */
export const developerLayout = (title: string, body: Raw, who: SignedIn, current?: DeveloperNav): string =>
  areaLayout(DEVELOPER_FRAME, title, body, { name: who.account.displayName, csrf: who.csrf }, current);
