import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { openStore } from '../../adapters/open-store.js';
import type { DeveloperAccount, Store } from '../../adapters/store.js';
import { ManualClock } from '../../src/clock.js';

interface Teardown { teardown(fn: () => unknown): void }

/**
 * A fresh SQLite store on a manual clock for the developer area's services, with a logger whose lines the test
 * reads, and `dev(name)`: a developer account made straight in the store (dev_<name>, <name>@example.com),
 * its address verified as an invitation's account's is (`{ verified: false }`: as open sign-up makes one).
 */
export async function developerStore(t: Teardown, o: { level?: string } = {}): Promise<{
  store: Store; clock: ManualClock; log: Logger; lines: string[]; dev: (name: string, o?: { verified?: boolean }) => Promise<DeveloperAccount>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-developer-'));
  const clock = new ManualClock(new Date('2030-03-01T10:00:00Z'));
  const store = await openStore(`sqlite:${join(dir, 'lanyard.db')}`, clock);
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });
  const lines: string[] = [];
  const log = pino({ level: o.level ?? 'info' }, { write: (l: string) => { lines.push(l); } });
  const dev = async (name: string, o: { verified?: boolean } = {}): Promise<DeveloperAccount> => {
    const now = clock.now().toISOString();
    const account: DeveloperAccount = {
      id: `dev_${name.toLowerCase()}`, email: `${name.toLowerCase()}@example.com`, displayName: name, passwordHash: 'x', createdAt: now, updatedAt: now,
      emailVerifiedAt: o.verified === false ? undefined : now,
    };
    await store.createDeveloper(account);
    return account;
  };
  return { store, clock, log, lines, dev };
}
