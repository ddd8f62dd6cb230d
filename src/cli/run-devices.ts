import { withConfiguredStore } from './configured-store.js';
import { systemClock, type Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { TrustedDevices } from '../accounts/trusted-devices.js';
import { findTargets } from './targets.js';
import { type CommandOutput, STANDARD_OUTPUT } from './output.js';
import { tableLines } from './table.js';

/** `lanyard devices list --org SLUG [--json]`: the organisation's trusted classroom devices, revoked ones too. */
export async function listDevicesCommand(config: Config, o: { org: string; json?: boolean }, clock: Clock = systemClock, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation } = await findTargets(store, o.org);
    const devices = await new TrustedDevices(store, clock).list(organisation.id);
    if (o.json) {
      io.out(JSON.stringify(devices.map((d) => ({
        id: d.id, name: d.name, created_at: d.createdAt, created_by: d.createdBy.username, status: d.revokedAt ? 'revoked' : 'active',
        ...(d.revokedAt ? { revoked_at: d.revokedAt } : {}),
      })), null, 2));
      return;
    }
    if (!devices.length) {
      io.out(`${organisation.name} has no classroom devices (staff mark one at /classroom-device)`);
      return;
    }
    const rows = devices.map((d) => [d.id, d.name, d.createdAt.slice(0, 16).replace('T', ' '), d.createdBy.username, d.revokedAt ? `revoked ${d.revokedAt.slice(0, 10)}` : 'active']);
    const head = ['ID', 'NAME', 'MARKED (UTC)', 'BY', 'STATUS'];
    for (const l of tableLines([head, ...rows])) io.out(l);
  });
}

/** `lanyard devices revoke --org SLUG (--device ID | --all)`: the device counts as unknown again at once. */
export async function revokeDevicesCommand(config: Config, o: { org: string; device?: string; all?: boolean }, clock: Clock = systemClock, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  if (!o.device === !o.all) throw new Error('say which device: --device ID (see lanyard devices list), or --all');
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation } = await findTargets(store, o.org);
    const devices = new TrustedDevices(store, clock);
    if (o.device && !(await devices.list(organisation.id)).some((d) => d.id === o.device)) {
      throw new Error(`no classroom device "${o.device}" at ${organisation.name} (see lanyard devices list --org ${o.org})`);
    }
    const n = await devices.revoke(organisation.id, o.device ? { id: o.device } : 'all');
    io.out(`revoked ${n} classroom device(s) of ${organisation.name}`);
  });
}
