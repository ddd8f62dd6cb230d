import { randomBytes } from 'node:crypto';
import { storeDataDir } from '../../adapters/open-store.js';
import type { ClassLink, Organisation, RosterClass, User } from '../../adapters/store.js';
import { ClassLinkService, CLASS_LINK_COOKIE } from '../../src/accounts/class-links.js';
import { CLASSROOM_COOKIE } from '../../src/accounts/device-cookies.js';
import { TrustedDevices } from '../../src/accounts/trusted-devices.js';
import { issueEmojiPassword } from '../../src/accounts/user-emoji.js';
import type { Clock } from '../../src/clock.js';
import { signValue } from '../../src/http/signed-value.js';
import { loadKeyEncryptionKey } from '../../src/keys/key-encryption-key.js';
import { SHARED_SETTINGS } from '../../src/startup/services.js';
import type { EmojiName } from '../../src/formats/emoji-bank.js';
import { putClass } from './class-roster.js';
import type { Lanyard } from './lanyard.js';

/**
 * Class sign-in's parts for tests (docs/childrens-sign-in.md → Class sign-in): a class of pupils with names no
 * page says otherwise, a classroom device set to a class, class links, and the cookies a browser holds for them.
 */

/** First names found nowhere else on Lanyard's pages; two share a first name (their tiles add a surname initial). */
export const TILE_PUPILS = [['Ottoline', 'Marchetti'], ['Peregrine', 'Vasquez'], ['Ottoline', 'Kowalczyk'], ['Wilhelmina', 'Thistlewood']] as const;
export const SUSPENDED = 'Wilhelmina';

export interface TileClass {
  organisation: Organisation;
  class: RosterClass;
  pupils: User[];
  /** Peregrine's emoji password. */
  emoji: EmojiName[];
}

/** The demo school's class of TILE_PUPILS (Wilhelmina suspended), its teacher the demo `teacher`; Peregrine has an emoji password. */
export async function tileClass(lanyard: Lanyard, prefix = 'tile'): Promise<TileClass> {
  const organisation = (await lanyard.store.findOrganisation('demo-school'))!;
  const teacher = (await lanyard.store.findUserByUsername(organisation.id, 'teacher'))!;
  const made = await putClass(lanyard.store, {
    organisationId: organisation.id, sourcedId: `${prefix}-class`, title: 'Class Kestrel', pupils: TILE_PUPILS, prefix: `${prefix}.pupil`,
    others: [{ user: teacher, role: 'teacher' }],
  });
  await lanyard.store.setSuspended(made.pupils[3]!.id, new Date().toISOString());
  const { names } = await issueEmojiPassword(lanyard.store, made.pupils[1]!);
  return { organisation, class: made.class, pupils: made.pupils, emoji: names };
}

export async function cookieKeys(lanyard: Lanyard): Promise<string[]> {
  return lanyard.config.cookieKeys ?? [(await lanyard.store.getSetting(SHARED_SETTINGS.cookieKey))!];
}

/** A trusted classroom device of `organisationId` (set to `classId`), as the cookie a browser would hold. */
export async function classroomDevice(lanyard: Lanyard, clock: Clock, organisationId: string, classId?: string): Promise<{ name: string; value: string; id: string }> {
  const device = await new TrustedDevices(lanyard.store, clock).add(organisationId, `Cart ${randomBytes(3).toString('hex')}`, { id: 'u-test', username: 'teacher' }, classId);
  return { name: CLASSROOM_COOKIE, value: signValue(await cookieKeys(lanyard), 'classroom', `${organisationId}~${device.id}`), id: device.id };
}

/** The class links service over the test's store, with the server's key-encryption key: its codes open over HTTP too. */
export const classLinks = (lanyard: Lanyard, clock: Clock) => new ClassLinkService({
  store: lanyard.store, clock, keyEncryptionKey: loadKeyEncryptionKey(lanyard.config.keyEncryptionKey, storeDataDir(lanyard.config.storeUrl)),
});

/** The cookie of a browser that opened `link`. */
export async function classLinkCookie(lanyard: Lanyard, link: Pick<ClassLink, 'organisationId' | 'id'>): Promise<{ name: string; value: string }> {
  return { name: CLASS_LINK_COOKIE, value: signValue(await cookieKeys(lanyard), 'class-link', `${link.organisationId}~${link.id}`) };
}
