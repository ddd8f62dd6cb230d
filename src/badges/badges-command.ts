import { accessSync, chmodSync, constants, existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { withStore } from '../../adapters/open-store.js';
import { findTargets } from '../accounts/users-command.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { renderBadgeSheet } from './badge-sheet.js';
import { issueBadge } from './badges.js';
import type { Paper } from './label-layout.js';

export interface PrintOptions { slug: string; usernames?: string[] | undefined; paper: Paper; out?: string | undefined }

/**
 * `lanyard badges print --org SLUG [--users a,b] [--paper a4] [--out badges.pdf]`: issues a new badge to each
 * user (the old ones stop working: codes are stored only as hashes, so printing means issuing) and writes
 * the printable sheet, to standard output unless --out is given.
 */
export async function printBadgesCommand(config: Config, clock: Clock, o: PrintOptions): Promise<void> {
  if (!o.out && process.stdout.isTTY) throw new Error('the sheet is a PDF: redirect it (> badges.pdf) or use --out FILE');
  if (o.out) assertWritable(o.out);
  // A user named twice would get two badges, the second voiding the first: a dead label on the sheet.
  const usernames = o.usernames && [...new Set(o.usernames)];
  await withStore(config.storeUrl, clock, async (store) => {
    const { organisation } = await findTargets(store, o.slug);
    const users = usernames
      ? await Promise.all(usernames.map(async (u) => (await findTargets(store, o.slug, u)).user!))
      : await store.listUsers(organisation.id);
    if (!users.length) throw new Error(`${organisation.name} has no users to print badges for`);
    const issued = [];
    for (const user of users) issued.push(await issueBadge(store, user));
    const pdf = await renderBadgeSheet(issued.map((b) => ({
      name: `${b.user.givenName} ${b.user.familyName}`,
      organisation: organisation.name,
      code: b.code,
      qrPayload: b.qrPayload,
    })), { paper: o.paper });
    if (o.out) {
      writeFileSync(o.out, pdf, { mode: 0o600 });
      chmodSync(o.out, 0o600); // also when an earlier sheet was overwritten
    }
    else process.stdout.write(pdf);
    process.stderr.write(`${issued.length} badge(s) issued for ${organisation.name}; earlier badges of these users no longer work\n`);
  });
}

/**
 * Printing voids the badges pupils hold, so a sheet that cannot be written must stop the command before any
 * badge is issued (a missing folder, a read-only file, a directory), not after.
 */
function assertWritable(path: string): void {
  const fail = (why: string) => new Error(`cannot write the sheet to ${path}: ${why}`);
  const folder = dirname(resolve(path));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw fail(`there is no folder ${folder}`);
  if (existsSync(path) && statSync(path).isDirectory()) throw fail('that is a folder');
  try {
    accessSync(existsSync(path) ? path : folder, constants.W_OK);
  } catch {
    throw fail('permission denied');
  }
}

/** `lanyard badges revoke --org SLUG [--user USERNAME]`: voids one user's badge, or the whole organisation's. */
export async function revokeBadgesCommand(config: Config, clock: Clock, slug: string, username?: string): Promise<void> {
  await withStore(config.storeUrl, clock, async (store) => {
    const { organisation, user } = await findTargets(store, slug, username);
    const count = await store.revokeBadges(user ? { userId: user.id } : { organisationId: organisation.id });
    process.stdout.write(`${count} badge(s) revoked${user ? ` for ${user.username}` : ''} in ${organisation.name}\n`);
  });
}
