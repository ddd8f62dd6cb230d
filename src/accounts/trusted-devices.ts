import { randomBytes } from 'node:crypto';
import type { Locks, Settings } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { withStoreLock } from './store-lock.js';

/**
 * Trusted classroom devices (docs/security.md → Sign-in protection): a tablet or Chromebook that a member of staff
 * marked for their organisation. Sign-ins of that organisation's users from it count as from a known device,
 * so no guessing elsewhere can slow them. The browser holds a signed credential naming the record
 * (interactions/classroom-device.ts); the record here is what makes it valid, so revoking takes effect on
 * every instance at once. Kept as one setting per organisation: a school has tens of these, not thousands.
 */
export interface TrustedDevice {
  id: string;
  organisationId: string;
  /** What staff called it ("Year 2 tablet 4"). */
  name: string;
  createdAt: string;
  /** The user id and username of the member of staff who marked it. */
  createdBy: { id: string; username: string };
  revokedAt?: string;
  /**
   * The roster class (RosterClass.id) this device belongs to, set by a teacher of the class or a school admin:
   * its sign-in screen shows the class's name tiles (docs/childrens-sign-in.md → Class sign-in).
   */
  classId?: string | undefined;
}

export const MAX_TRUSTED_DEVICES = 2000;

export class TooManyDevicesError extends Error {
  constructor() {
    super(`an organisation has at most ${MAX_TRUSTED_DEVICES} active classroom devices; revoke some first`);
  }
}
const LOCK = { ttlMs: 5_000, waitMs: 5_000 };

const settingName = (organisationId: string) => `trusted-devices:${organisationId}`;

export class TrustedDevices {
  constructor(private readonly store: Settings & Locks, private readonly clock: Clock) {}

  async list(organisationId: string): Promise<TrustedDevice[]> {
    const raw = await this.store.getSetting(settingName(organisationId));
    return raw ? (JSON.parse(raw) as TrustedDevice[]) : [];
  }

  /** The device, when it exists for this organisation and has not been revoked. */
  async active(organisationId: string, id: string): Promise<TrustedDevice | undefined> {
    return (await this.list(organisationId)).find((d) => d.id === id && !d.revokedAt);
  }

  async add(organisationId: string, name: string, createdBy: TrustedDevice['createdBy'], classId?: string): Promise<TrustedDevice> {
    const device: TrustedDevice = {
      // Hex, never base64url: an id starting with '-' would read as an option in `devices revoke --device ID`.
      id: randomBytes(12).toString('hex'),
      organisationId,
      name,
      createdAt: this.clock.now().toISOString(),
      createdBy,
      ...(classId !== undefined ? { classId } : {}),
    };
    await this.#update(organisationId, (devices) => {
      const active = devices.filter((d) => !d.revokedAt);
      if (active.length >= MAX_TRUSTED_DEVICES) throw new TooManyDevicesError();
      // Revoked records are history; the oldest go first so the list stays bounded.
      const history = devices.filter((d) => d.revokedAt).slice(-MAX_TRUSTED_DEVICES);
      return [...history, ...active, device];
    });
    return device;
  }

  /** Revokes one device (by id) or, with `all`, every device; returns how many were revoked. */
  async revoke(organisationId: string, which: { id: string } | 'all'): Promise<number> {
    let revoked = 0;
    const at = this.clock.now().toISOString();
    await this.#update(organisationId, (devices) => devices.map((d) => {
      if (d.revokedAt || (which !== 'all' && d.id !== which.id)) return d;
      revoked += 1;
      return { ...d, revokedAt: at };
    }));
    return revoked;
  }

  /**
   * Sets (or, with undefined, clears) the class whose name tiles the active device shows; false when there is
   * no such active device. Who may choose which class is the page's to decide (interactions/classroom-device.ts).
   */
  async setClass(organisationId: string, id: string, classId: string | undefined): Promise<boolean> {
    let found = false;
    await this.#update(organisationId, (devices) => devices.map((d) => {
      if (d.id !== id || d.revokedAt) return d;
      found = true;
      const { classId: _old, ...rest } = d;
      return classId === undefined ? rest : { ...rest, classId };
    }));
    return found;
  }

  /** Read-modify-write under the store's lock, so two instances adding at once both keep their device. */
  async #update(organisationId: string, change: (devices: TrustedDevice[]) => TrustedDevice[]): Promise<void> {
    await withStoreLock(this.store, `trusted-devices:${organisationId}`, LOCK, async () => {
      const next = change(await this.list(organisationId));
      await this.store.putSetting(settingName(organisationId), JSON.stringify(next));
    });
  }
}
