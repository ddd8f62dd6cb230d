import type { User } from '../../adapters/store.js';
import type { Paper } from '../badges/label-layout.js';
import { formField, formFields } from '../web/http.js';
import { SchoolInputError } from './errors.js';

/**
 * Whom a class's form chose (docs/school-console.md → Your classes): the whole class (`whole=1`), or the
 * pupils ticked (`pupil`, repeated). Only the class's own pupils count — an id of anyone else is no one — so
 * the choice can never reach past what access.ts allowed.
 */
export interface Chosen {
  users: User[];
  whole: boolean;
}

export function chosenPupils(pupils: readonly User[], input: unknown): Chosen {
  if (formField(input, 'whole') === '1') {
    if (!pupils.length) throw new SchoolInputError('This class has no pupils yet.');
    return { users: [...pupils], whole: true };
  }
  const ids = new Set(formFields(input, 'pupil'));
  const users = pupils.filter((p) => ids.has(p.id));
  if (!users.length) throw new SchoolInputError('Choose at least one pupil, or the whole class, then the action.');
  return { users, whole: false };
}

/** The form's fields that say the same choice again (on the confirmation, for the action). */
export const choiceFields = (c: Chosen): [string, string][] => (c.whole ? [['whole', '1']] : c.users.map((u) => ['pupil', u.id]));

/** The paper a print is for: A4 when asked, else US Letter. */
export const paperOf = (input: unknown): Paper => (formField(input, 'paper') === 'a4' ? 'a4' : 'letter');
