import type { User } from '../../adapters/store.js';
import { verifyCredential } from '../accounts/credential-hasher.js';
import { personName } from '../audit/audit-people.js';
import type { Paper } from '../badges/label-layout.js';
import { renderCredentials } from '../cards/credential-documents.js';
import { canonicalEmojiPassword, type EmojiName, parseEmojiPassword } from '../formats/emoji-bank.js';
import { SchoolInputError } from './errors.js';
import { type Acting, type ActionDone, fileName, recordEach } from './pupil-actions.js';

/**
 * The printable card of a new emoji password just shown once on the person's page (docs/school-console.md →
 * Helping a pupil): the page sends the pictures back, and the card is printed only while they are still the
 * pupil's emoji password (checked against the stored hash), so that no card is printed that does not work.
 * Nothing changes; the printing is recorded.
 */
export async function emojiCard(on: Acting, user: User, posted: unknown, paper: Paper): Promise<ActionDone> {
  const pictures = typeof posted === 'string' ? parseEmojiPassword(posted) : [];
  const canonical = canonicalEmojiPassword(pictures);
  const hash = await on.deps.store.getCredential(user.id, 'emoji');
  if (!canonical || !hash || !(await verifyCredential(hash, canonical))) {
    throw new SchoolInputError(`These pictures are no longer ${personName(user)}'s emoji password: make a new one to print a new card.`);
  }
  const pdf = await renderCredentials([{ method: 'emoji', user, pictures: pictures as EmojiName[] }], {
    organisation: on.school.organisation, paper, signInAt: on.deps.issuer,
  });
  recordEach(on, [user], 'console', 'emoji.card_printed');
  return { message: `${personName(user)}'s emoji card printed.`, pdf: { body: pdf, filename: fileName('emoji-card', user.username) } };
}
