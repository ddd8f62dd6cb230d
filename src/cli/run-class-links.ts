import { storeDataDir } from '../../adapters/open-store.js';
import type { ClassLink, Store } from '../../adapters/store.js';
import { ClassLinkService, CLASS_LINK_MAX_MINUTES, spacedClassCode } from '../accounts/class-links.js';
import { personName } from '../audit/audit-people.js';
import { classLinkEvent } from '../audit/class-link-event.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { loadKeyEncryptionKey } from '../keys/key-encryption-key.js';
import { ROUTES } from '../routes.js';
import { UsageError } from './command.js';
import { commandUser } from './command-user.js';
import { withAuditedStore, withConfiguredStore } from './configured-store.js';
import { type CommandOutput, STANDARD_OUTPUT } from './output.js';
import { minuteUtc } from './run-users.js';
import { tableLines } from './table.js';
import { findClassTarget, findTargets } from './targets.js';

/**
 * `lanyard classes link|links|unlink` (docs/childrens-sign-in.md → Class links): the operator's side of the
 * console's class links, through the same service and with the same audit events (`class_link.created`,
 * `class_link.revoked`), made by `cli:<os user>`. The code is printed once; Lanyard keeps a keyed hash of it,
 * under a key derived from the key-encryption key the server uses (so the server opens what the command made).
 */

export interface ClassLinkTarget { org: string; class: string; json?: boolean | undefined }

/** `--minutes 90` → 90; refused unless a whole number of minutes from 1 to a day. */
export function minutesOf(value: string): number {
  const n = Number(value);
  if (!/^[1-9][0-9]{0,3}$/.test(value) || n > CLASS_LINK_MAX_MINUTES) {
    throw new UsageError(`--minutes: "${value}" is not a number of minutes from 1 to ${CLASS_LINK_MAX_MINUTES} (a day)`, 'classes link');
  }
  return n;
}

const serviceOf = (config: Config, store: Store, clock: Clock) =>
  new ClassLinkService({ store, clock, keyEncryptionKey: loadKeyEncryptionKey(config.keyEncryptionKey, storeDataDir(config.storeUrl)) });

async function targetsOf(store: Store, o: ClassLinkTarget) {
  const { organisation } = await findTargets(store, o.org);
  return { organisation, klass: await findClassTarget(store, organisation, o.class) };
}

/** One live link as `classes links --json` prints it. */
export interface ClassLinkListing {
  id: string;
  madeBy: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * `lanyard classes link --org SLUG --class ID [--minutes N] [--json]`: a class link for the class, for N
 * minutes (60 unless said; at most a day), printed once: its code, its link and until when.
 */
export async function makeClassLinkCommand(
  config: Config, clock: Clock, o: ClassLinkTarget & { minutes: string }, io: CommandOutput = STANDARD_OUTPUT,
): Promise<void> {
  const minutes = minutesOf(o.minutes);
  await withAuditedStore(config, clock, async (store, audit) => {
    const { organisation, klass } = await targetsOf(store, o);
    const by = commandUser();
    const until = new Date(clock.now().getTime() + minutes * 60_000);
    const { link, code } = await serviceOf(config, store, clock).create(organisation.id, klass.id, { id: by, username: by }, until);
    audit.record(classLinkEvent(klass, 'class_link.created', link, { actorId: by, actorName: by }, { minutes: String(minutes) }));
    const url = `${config.issuer}${ROUTES.classLink}/${code}`;
    if (o.json) return io.out(JSON.stringify({ id: link.id, classId: klass.id, code: spacedClassCode(code), url, expiresAt: link.expiresAt }, null, 2));
    io.out(`class link for ${klass.title} at ${organisation.name}, until ${minuteUtc(link.expiresAt)} (${minutes} minute${minutes === 1 ? '' : 's'}):`);
    io.out(`  code: ${spacedClassCode(code)}   (typed at ${config.issuer}${ROUTES.classLink})`);
    io.out(`  link: ${url}`);
    io.out(`shown once: Lanyard keeps only a keyed hash of the code. Anyone with it sees the class's first names until then;`);
    io.out(`end it sooner with: lanyard classes unlink --org ${organisation.slug} --class ${klass.sourcedId} --link ${link.id}`);
  });
}

/** Who made a link, by name when they are a user still (the console's makers), else as recorded (`cli:<os user>`). */
async function makerName(store: Store, link: ClassLink): Promise<string> {
  const user = await store.findUser(link.createdBy.id);
  return user ? personName(user) : link.createdBy.username;
}

/** `lanyard classes links --org SLUG --class ID [--json]`: the class's live links, newest first; never a code. */
export async function listClassLinksCommand(config: Config, clock: Clock, o: ClassLinkTarget, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, klass } = await targetsOf(store, o);
    const links = await serviceOf(config, store, clock).list(organisation.id, klass.id);
    const listed: ClassLinkListing[] = await Promise.all(links.map(async (l) => ({ id: l.id, madeBy: await makerName(store, l), createdAt: l.createdAt, expiresAt: l.expiresAt })));
    if (o.json) return io.out(JSON.stringify(listed, null, 2));
    if (!listed.length) return io.out(`${klass.title} has no live class link (lanyard classes link --org ${organisation.slug} --class ${klass.sourcedId} makes one)`);
    const rows = [['ID', 'MADE BY', 'MADE (UTC)', 'UNTIL (UTC)'], ...listed.map((l) => [l.id, l.madeBy, minuteUtc(l.createdAt), minuteUtc(l.expiresAt)])];
    for (const line of tableLines(rows)) io.out(line);
  });
}

/** `lanyard classes unlink --org SLUG --class ID --link LINK_ID`: ends one of the class's live links at once. */
export async function revokeClassLinkCommand(
  config: Config, clock: Clock, o: ClassLinkTarget & { link: string }, io: CommandOutput = STANDARD_OUTPUT,
): Promise<void> {
  await withAuditedStore(config, clock, async (store, audit) => {
    const { organisation, klass } = await targetsOf(store, o);
    const service = serviceOf(config, store, clock);
    const link = await service.live(organisation.id, o.link);
    if (!link || link.classId !== klass.id || !(await service.revoke(organisation.id, link.id))) {
      throw new Error(`${klass.title} has no live class link "${o.link}" (lanyard classes links --org ${organisation.slug} --class ${klass.sourcedId} lists them)`);
    }
    const by = commandUser();
    audit.record(classLinkEvent(klass, 'class_link.revoked', link, { actorId: by, actorName: by }));
    io.out(`revoked the class link ${link.id} of ${klass.title}: its link and code open nothing from now on`);
  });
}
