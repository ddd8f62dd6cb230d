import type { RosterClass } from '../../../adapters/store.js';
import { html, type Raw } from '../../web/html.js';
import type { PupilAction } from '../pupil-actions.js';
import { schoolPath } from './school-layout.js';

/** The pieces the class page, the person's page and the confirmations share (docs/school-console.md → Your classes). */

/** A class's page, and what follows it. */
export const classPath = (slug: string, klass: Pick<RosterClass, 'id'>, rest = ''): string =>
  schoolPath(slug, `/classes/${encodeURIComponent(klass.id)}${rest}`);

/**
 * What each action is called on its button, and what its confirmation says it does (in the plural "they",
 * which reads for one pupil as for many). Printing replaces credentials: the confirmation says so before
 * anything changes.
 */
export const ACTION_WORDS: Record<PupilAction, { button: string; one: string; heading: string; explain: string; confirm: string; print?: boolean }> = {
  badges: {
    button: 'Print badges',
    one: 'Print a new badge',
    heading: 'Print new badges',
    explain: 'Each of them gets a new badge, on a sheet of labels that downloads as a PDF. Their earlier badges stop working at once, and anyone signed in with one is signed out.',
    confirm: 'Issue new badges and download the sheet',
    print: true,
  },
  'emoji-cards': {
    button: 'Print emoji cards',
    one: 'Print a new emoji card',
    heading: 'Print emoji cards: this sets new emoji passwords',
    explain: 'Printing emoji cards sets a new emoji password (six new pictures) for each of them, on cards that download as a PDF. Their old pictures stop working at once, and anyone signed in with them is signed out.',
    confirm: 'Set new emoji passwords and download the cards',
    print: true,
  },
  'void-badges': {
    button: 'Void badges',
    one: 'Void their badge',
    heading: 'Void badges',
    explain: 'Their badges stop working at once, and anyone signed in with one is signed out. Print new badges to give them new ones.',
    confirm: 'Void their badges',
  },
  unlock: {
    button: 'Unlock',
    one: 'Unlock',
    heading: 'Unlock',
    explain: 'After too many wrong tries at someone\'s pictures or password, Lanyard stops sign-in from new devices until staff unlock it. Unlocking lets them sign in again at once; devices they used before stay known.',
    confirm: 'Unlock',
  },
  'sign-out': {
    button: 'Sign out everywhere',
    one: 'Sign out everywhere',
    heading: 'Sign out everywhere',
    explain: 'Ends every Lanyard sign-in of theirs, on every device and in every app. They sign in again with their pictures, password or badge.',
    confirm: 'Sign out everywhere',
  },
};

/** Whether sign-in from new devices is stopped, and for which ways in (`Locked (emoji, help code)`): words and colour together. */
export function lockedText(locked: readonly string[]): Raw {
  return locked.length ? html`<span class="status-badge status-locked">Locked (${locked.map((f) => f.replace('_', ' ')).join(', ')})</span>` : html`No`;
}

/** The paper a print is laid out for: US Letter (the default) or A4, as two radio buttons. */
export const paperChoice = (): Raw => html`<div class="check"><input type="radio" name="paper" value="letter" id="paper-letter" checked><label for="paper-letter">US Letter</label></div>
<div class="check"><input type="radio" name="paper" value="a4" id="paper-a4"><label for="paper-a4">A4</label></div>`;
