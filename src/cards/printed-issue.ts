import type { Store, User } from '../../adapters/store.js';
import { type CredentialMethod, drawCredentials, hashCredentials, type Stored, storeCredentials } from '../roster/class-credentials.js';
import { type DocumentContext, renderCredentials } from './credential-documents.js';

/** What was issued and the document that holds it: only the credentials stored are in it. */
export interface PrintedIssue extends Stored {
  pdf: Buffer;
}

/**
 * New credentials of one kind for `users` and the one PDF that holds them (the school console's Print
 * buttons; docs/school-console.md → Printing): drawn, then hashed while the PDF is laid out, then stored,
 * each user's on its own (a replaced credential ends that user's sessions). When no write succeeds, the
 * first failure is thrown and nothing changed; when only some do, the PDF is made again for those alone,
 * so that no card or label in it is one that does not work.
 */
export async function issuePrinted(store: Store, users: readonly User[], method: CredentialMethod, c: DocumentContext): Promise<PrintedIssue> {
  const drawn = drawCredentials(users, method);
  const [prepared, pdf] = await Promise.all([hashCredentials(drawn), renderCredentials(drawn, c)]);
  const outcome = await storeCredentials(store, prepared);
  if (!outcome.stored.length) throw outcome.failed[0]!.error;
  return { ...outcome, pdf: outcome.failed.length ? await renderCredentials(outcome.stored, c) : pdf };
}
