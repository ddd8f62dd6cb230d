import { withAuditedStore } from './configured-store.js';
import { credentialChange } from '../audit/credential-change.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { failureReason } from '../errors.js';
import type { Paper } from '../badges/label-layout.js';
import { type DocumentContext, renderCredentials } from '../cards/credential-documents.js';
import {
  type CredentialMethod, drawCredentials, hashCredentials, holders, type Prepared, selectUsers, type Stored, storeCredentials,
} from '../roster/class-credentials.js';
import { UsageError } from './command.js';
import { type CommandOutput, STANDARD_OUTPUT } from './output.js';
import { checkPrivateFile, replacePrivateFile, writePrivateFile } from './private-file.js';
import { findClassTarget, findTargets } from './targets.js';

export interface IssueOptions {
  org: string;
  /** A class (id or sourcedId): its pupils. */
  class?: string | undefined;
  /** Users by username. */
  users?: string[] | undefined;
  method: CredentialMethod;
  /** Only those without a credential of this kind (a badge: an active one). */
  onlyMissing: boolean;
  out: string;
  /** Replace an existing file at `out`. */
  force: boolean;
  paper: Paper;
}

const WHAT: Record<CredentialMethod, { one: string; plural: string; document: string }> = {
  emoji: { one: 'an emoji password', plural: 'emoji passwords', document: 'emoji cards' },
  password: { one: 'a password', plural: 'passwords', document: 'password letters' },
  badge: { one: 'an active badge', plural: 'badges', document: 'badge sheet' },
};

/**
 * `lanyard credentials issue --org SLUG (--class ID | --users a,b) --method emoji|password|badge
 * [--only-missing] --out FILE.pdf [--force] [--paper a4]`: issues a credential of one kind to everyone
 * selected at once and writes one printable PDF (emoji cards, password letters or a badge sheet). The PDF
 * is made and written (mode 0600) before anything is stored, and put in place after; the secrets are in it
 * only, never on standard output. Replaced credentials end their users' sessions. When only some could be
 * stored, the file is kept for those, both lists are printed, and the command fails (exit 1).
 */
export async function issueCredentialsCommand(config: Config, clock: Clock, o: IssueOptions, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  if (o.class === undefined && !o.users?.length) throw new UsageError('choose who: --class ID, --users a,b, or both', 'credentials issue');
  checkPrivateFile(o.out, o);
  await withAuditedStore(config, clock, async (store, audit) => {
    const { organisation } = await findTargets(store, o.org);
    const inClass = o.class === undefined ? undefined : await findClassTarget(store, organisation, o.class);
    const named = await Promise.all((o.users ?? []).map(async (u) => (await findTargets(store, o.org, u)).user!));
    const { users, unable } = await selectUsers(store, { inClass, named });
    const has = o.onlyMissing ? await holders(store, users, o.method) : new Set<string>();
    const chosen = users.filter((u) => !has.has(u.id));
    const whom = inClass ? `${inClass.title} at ${organisation.name}` : organisation.name;
    if (unable.length) {
      io.out(`left out ${unable.length} pupil(s) of ${inClass!.title} who cannot sign in (suspended, or left the school's roster): ${unable.map((u) => u.username).join(', ')}`);
    }
    if (!chosen.length) {
      io.out(users.length
        ? `nothing to issue: all ${users.length} selected user(s) of ${whom} already have ${WHAT[o.method].one}; no file written`
        : `nothing to issue: ${inClass ? `${inClass.title} has no pupils who can sign in` : 'no users selected'}; no file written`);
      return;
    }
    const drawn = drawCredentials(chosen, o.method);
    // argon2 runs on libuv's threads while the PDF is laid out on this one.
    const hashing = hashCredentials(drawn);
    const context: DocumentContext = { organisation, inClass, paper: o.paper, signInAt: config.issuer };
    const rendering = renderCredentials(drawn, context);
    const [prepared, pdf] = await Promise.all([hashing, rendering]);
    const outcome = await writePrivateFile(o.out, pdf, o, async () => {
      const stored = await storeCredentials(store, prepared);
      if (!stored.stored.length) {
        throw new Error(`the credentials could not be stored (${reasons(stored)}): nothing was issued, every credential is as it was, and no file was written`);
      }
      return stored;
    });
    for (const p of outcome.stored) audit.record(credentialChange(p.user, `${o.method}.issued`));
    if (outcome.failed.length) return reportPartial(outcome, { o, whom, chosen: chosen.length, io, pdf: () => renderCredentials(outcome.stored, context) });
    io.out(`${WHAT[o.method].plural} issued to ${chosen.length} user(s) of ${whom}; ${WHAT[o.method].document} written to ${o.out} (readable by you only)`);
    if (users.length > chosen.length) io.out(`skipped ${users.length - chosen.length} who already had one (--only-missing)`);
    io.out(HAND_OUT);
    if (!o.onlyMissing) io.out(`earlier ${WHAT[o.method].plural} of these users no longer work, and anyone who had one is signed out of Lanyard everywhere`);
  });
}

const HAND_OUT = 'print it, hand them out, then delete the file: it holds the secrets, which Lanyard keeps only as hashes';

const usernames = (prepared: readonly Prepared[]) => prepared.map((p) => p.user.username).join(', ');
/** Why writes failed, each reason once: a store failure by what the store said (its cause), not by its OAuth code. */
const reasons = (s: Stored) => [...new Set(s.failed.map(({ error }) => failureReason(error)))].join('; ');

/**
 * Some credentials were stored and some not: those stored are in force and their secrets nowhere but in the
 * file, so the file is kept — remade for them alone when it can be — and both lists are said. Exit 1.
 */
async function reportPartial(outcome: Stored, c: { o: IssueOptions; whom: string; chosen: number; io: CommandOutput; pdf: () => Promise<Buffer> }): Promise<never> {
  const { o, io } = c;
  const what = WHAT[o.method];
  io.out(`${what.plural} issued to ${outcome.stored.length} of ${c.chosen} user(s) of ${c.whom}: ${usernames(outcome.stored)}`);
  try {
    replacePrivateFile(o.out, await c.pdf());
    io.out(`${what.document} for those ${outcome.stored.length} written to ${o.out} (readable by you only)`);
  } catch (err) {
    io.out(`${what.document} written to ${o.out} (readable by you only), for all ${c.chosen}: only those of the ${outcome.stored.length} named above work`
      + ` (the file for them alone could not be made: ${(err as Error).message})`);
  }
  io.out(HAND_OUT);
  if (!o.onlyMissing) io.out(`earlier ${what.plural} of those ${outcome.stored.length} no longer work, and anyone who had one is signed out of Lanyard everywhere`);
  const failed = outcome.failed.map((f) => f.prepared);
  io.err(`not issued to ${failed.length} user(s), whose ${what.plural} are as they were: ${usernames(failed)} (${reasons(outcome)})`);
  throw new Error(`${failed.length} of ${c.chosen} credentials could not be stored (named above); issue theirs again once the store takes writes`);
}
