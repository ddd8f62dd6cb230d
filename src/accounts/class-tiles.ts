import type { Organisation, Store, User } from '../../adapters/store.js';
import { maySignIn } from './account-status.js';
import { isStaffAnywhere } from './school-staff.js';

/**
 * Who class sign-in's name tiles show, and how each is named (docs/childrens-sign-in.md → Class sign-in).
 * Only what a classmate already knows is shown: the first name, and a surname initial where the school asks
 * for one (LoginSettings.tilesShowSurnameInitial) or where two pupils of the class share a first name. Never a
 * surname, never a username. Behind a tile is just a username: signing in through it is as protected as
 * typing it.
 */
export interface TilePupil {
  id: string;
  /** Only for signing in (never shown). */
  username: string;
  /** What the tile says: "Ava", or "Ava K.". */
  label: string;
  /** The letter in the tile's coloured circle. */
  initial: string;
  /** One of TILE_COLOURS colours (a class in lanyard.css), steady for the pupil. */
  colour: number;
}

/** How many colours the tiles' initial circles cycle through (lanyard.css: .tile-colour-0 …). */
export const TILE_COLOURS = 8;

/**
 * The user types (config roster.types' defaults: src/config/defaults.ts ROSTER_TYPES_DEFAULT) of people who are
 * not pupils: staff, and family. A roster may still enrol one as a student in a class; they get no tile.
 */
const NOT_PUPIL_TYPES: ReadonlySet<string> = new Set(['teacher', 'admin', 'employee', 'guardian']);

/** Who may be shown on a tile: a pupil of the class, of this school, who may sign in, and not a member of staff. */
async function mayHaveTile(store: Pick<Store, 'userStaffGrants' | 'userEnrolments'>, organisation: Organisation, user: User): Promise<boolean> {
  if (user.organisationId !== organisation.id || !maySignIn(user) || !user.givenName.trim()) return false;
  if (NOT_PUPIL_TYPES.has(user.type)) return false;
  return !(await isStaffAnywhere(store, user.id));
}

const firstGrapheme = (text: string, locale: string): string => {
  const first = new Intl.Segmenter(locale, { granularity: 'grapheme' }).segment(text.trim())[Symbol.iterator]().next().value;
  return (first?.segment ?? '').toLocaleUpperCase(locale);
};

const colourOf = (id: string): number => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % TILE_COLOURS;

/**
 * The tiles for one class, by first name (as the page's language sorts): labelled by tileLabels. A class of
 * another school, or one that does not exist, has none.
 */
export async function classTiles(
  store: Pick<Store, 'findClass' | 'classEnrolments' | 'findUser' | 'userStaffGrants' | 'userEnrolments'>,
  organisation: Organisation, classId: string, locale: string,
): Promise<TilePupil[]> {
  const klass = await store.findClass(organisation.id, classId);
  if (klass?.id !== classId) return [];
  const enrolments = (await store.classEnrolments(classId)).filter((e) => e.role === 'student');
  const users = (await Promise.all(enrolments.map((e) => store.findUser(e.userId)))).filter((u): u is User => !!u);
  const shown = (await Promise.all(users.map(async (u) => ((await mayHaveTile(store, organisation, u)) ? u : undefined))))
    .filter((u): u is User => !!u);
  return tileLabels(shown, organisation.login.tilesShowSurnameInitial === true, locale);
}

/**
 * Names the tiles: the first name; with the surname's initial when the school asks for it, or when another
 * pupil of the class has the same first name (compared as the language does, ignoring case and accents).
 * Sorted by label, then by id so the order is steady.
 */
export function tileLabels(users: readonly User[], surnameInitial: boolean, locale: string): TilePupil[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base' });
  const given = (u: User) => u.givenName.trim();
  const shared = (u: User) => users.some((o) => o.id !== u.id && collator.compare(given(o), given(u)) === 0);
  const label = (u: User) => {
    const initial = firstGrapheme(u.familyName, locale);
    return (surnameInitial || shared(u)) && initial ? `${given(u)} ${initial}.` : given(u);
  };
  return users.map((u) => ({ id: u.id, username: u.username, label: label(u), initial: firstGrapheme(u.givenName, locale), colour: colourOf(u.id) }))
    .sort((a, b) => collator.compare(a.label, b.label) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
