import type { Organisation, RosterClass } from '../../adapters/store.js';
import { badgeName } from '../badges/badge-name.js';
import { renderBadgeSheet } from '../badges/badge-sheet.js';
import type { Paper } from '../badges/label-layout.js';
import type { Drawn } from '../roster/class-credentials.js';
import { renderEmojiCards } from './emoji-cards.js';
import { renderPasswordLetters } from './password-letters.js';

/**
 * The one printable document of credentials drawn for many users at once (src/roster/class-credentials.ts),
 * by their kind: emoji cards, password letters or a badge sheet (docs/rostering.md → Credentials for a class).
 * `lanyard credentials issue` writes it to a file; the school console sends it as the answer to the form.
 */

/** Whose document it is: the school, the class when it is one class's, and where to sign in (the letters say it). */
export interface DocumentContext {
  organisation: Pick<Organisation, 'name'>;
  inClass?: Pick<RosterClass, 'title'> | undefined;
  paper: Paper;
  signInAt: string;
}

/** The document's title: `Class 3B — Demo School`, or the school alone. */
const titleOf = (c: DocumentContext) => `${c.inClass ? `${c.inClass.title} — ` : ''}${c.organisation.name}`;

/** The PDF of the drawn credentials, all of one kind, in the order given. */
export function renderCredentials(drawn: readonly Drawn[], c: DocumentContext): Promise<Buffer> {
  const detail = c.inClass ? `${c.inClass.title} · ${c.organisation.name}` : c.organisation.name;
  const method = drawn[0]!.method;
  if (method === 'badge') {
    return renderBadgeSheet(drawn.map((p) => {
      if (p.method !== 'badge') throw new Error('one kind of credential per sheet');
      return { name: badgeName(p.user), organisation: c.organisation.name, code: p.badge.code, qrPayload: p.badge.qrPayload };
    }), { paper: c.paper });
  }
  if (method === 'emoji') {
    return renderEmojiCards(drawn.map((p) => {
      if (p.method !== 'emoji') throw new Error('one kind of credential per sheet');
      return { name: badgeName(p.user), username: p.user.username, detail, pictures: p.pictures };
    }), { paper: c.paper, title: `Lanyard emoji cards — ${titleOf(c)}` });
  }
  return renderPasswordLetters(drawn.map((p) => {
    if (p.method !== 'password') throw new Error('one kind of credential per sheet');
    return { name: badgeName(p.user), school: c.organisation.name, detail: c.inClass?.title, username: p.user.username, password: p.password };
  }), { paper: c.paper, signInAt: c.signInAt, title: `Lanyard password letters — ${titleOf(c)}` });
}
