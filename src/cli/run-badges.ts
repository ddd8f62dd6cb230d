import { accessSync, chmodSync, constants, existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { withAuditedStore } from './configured-store.js';
import { credentialChange } from '../audit/credential-change.js';
import { OPERATOR } from '../audit/audit-people.js';
import { findTargets } from './targets.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { badgeName } from '../badges/badge-name.js';
import { renderBadgeSheet } from '../badges/badge-sheet.js';
import { issueBadge } from '../badges/badges.js';
import type { Paper } from '../badges/label-layout.js';
import { STANDARD_OUTPUT } from './output.js';

export interface PrintOptions { slug: string; usernames?: string[] | undefined; types?: string[] | undefined; paper: Paper; out?: string | undefined }

/** Who gets a badge when the command names neither users nor types: the pupils. */
export const DEFAULT_BADGE_TYPES: readonly string[] = ['student'];

/**
 * `lanyard badges print --org SLUG [--users a,b] [--types t,u] [--paper a4] [--out badges.pdf]`: issues a new
 * badge to each selected user (the old ones stop working: codes are stored only as hashes, so printing means
 * issuing) and writes the printable sheet, to standard output unless --out is given. Selected: the users of
 * the given types (pupils, type `student`, when neither option is given) and the users named, in that order.
 */
export async function printBadgesCommand(config: Config, clock: Clock, o: PrintOptions): Promise<void> {
  if (!o.out && process.stdout.isTTY) throw new Error('the sheet is a PDF: redirect it (> badges.pdf) or use --out FILE');
  if (o.out) assertWritable(o.out);
  const usernames = o.usernames?.length ? o.usernames : undefined;
  const types = o.types?.length ? o.types : usernames ? undefined : DEFAULT_BADGE_TYPES;
  await withAuditedStore(config, clock, async (store, audit) => {
    const { organisation } = await findTargets(store, o.slug);
    const ofTypes = types ? (await store.listUsers(organisation.id)).filter((u) => types.includes(u.type)) : [];
    const named = await Promise.all((usernames ?? []).map(async (u) => (await findTargets(store, o.slug, u)).user!));
    // A user selected twice would get two badges, the second voiding the first: a dead label on the sheet.
    const users = [...new Map([...ofTypes, ...named].map((u) => [u.id, u])).values()];
    if (!users.length) {
      const whom = types ? `users of type ${types.join(', ')}` : 'users';
      throw new Error(`${organisation.name} has no ${whom} to print badges for (choose with --types or --users)`);
    }
    const issued = [];
    for (const user of users) {
      issued.push(await issueBadge(store, user));
      audit.record(credentialChange(user, 'badge.issued'));
    }
    const pdf = await renderBadgeSheet(issued.map((b) => ({
      name: badgeName(b.user),
      organisation: organisation.name,
      code: b.code,
      qrPayload: b.qrPayload,
    })), { paper: o.paper });
    if (o.out) {
      writeFileSync(o.out, pdf, { mode: 0o600 });
      chmodSync(o.out, 0o600); // also when an earlier sheet was overwritten
    }
    else process.stdout.write(pdf);
    STANDARD_OUTPUT.err(`${issued.length} badge(s) issued for ${organisation.name}; earlier badges of these users no longer work`);
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
  await withAuditedStore(config, clock, async (store, audit) => {
    const { organisation, user } = await findTargets(store, slug, username);
    const count = await store.revokeBadges(user ? { userId: user.id } : { organisationId: organisation.id });
    if (count) {
      audit.record(user ? credentialChange(user, 'badge.voided')
        : { organisationId: organisation.id, kind: 'credential', action: 'badge.voided', ...OPERATOR, detail: { badges: String(count) } });
    }
    STANDARD_OUTPUT.out(`${count} badge(s) revoked${user ? ` for ${user.username}` : ''} in ${organisation.name}`);
  });
}
