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
  /** One of TILE_COLOURS colours (a class in class-tiles.css), steady for the pupil. */
  colour: number;
}

/** How many colours the tiles' initial circles cycle through (class-tiles.css: .tile-colour-0 …). */
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

const graphemes = (text: string, locale: string): string[] =>
  [...new Intl.Segmenter(locale, { granularity: 'grapheme' }).segment(text.trim())].map((g) => g.segment);

const firstGrapheme = (text: string, locale: string): string => (graphemes(text, locale)[0] ?? '').toLocaleUpperCase(locale);

const colourOf = (id: string): number => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % TILE_COLOURS;

type Enrolled = Pick<Store, 'findClass' | 'findUser' | 'userStaffGrants' | 'userEnrolments'>;

/**
 * The tiles for one class, by first name (as the page's language sorts): labelled by tileLabels. A class of
 * another school, or one that does not exist, has none.
 */
export async function classTiles(
  store: Enrolled & Pick<Store, 'classEnrolments'>, organisation: Organisation, classId: string, locale: string,
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
 * One pupil of the class's tiles, when they are on them (the class of this school, the pupil enrolled in it as a
 * student and mayHaveTile): what a tapped tile's screens ask on every request, without reading the whole class.
 * Named without looking at the classmates: the first name, with the surname initial where the school asks
 * for it (a tile's longer name for a classmate of the same first name is on the tiles only).
 */
export async function tilePupil(
  store: Enrolled, organisation: Organisation, classId: string, pupilId: string, locale: string,
): Promise<TilePupil | undefined> {
  const [klass, user, enrolments] = await Promise.all([
    store.findClass(organisation.id, classId), store.findUser(pupilId), store.userEnrolments(pupilId),
  ]);
  if (klass?.id !== classId || user?.id !== pupilId) return undefined;
  if (!enrolments.some((e) => e.classId === classId && e.role === 'student')) return undefined;
  if (!(await mayHaveTile(store, organisation, user))) return undefined;
  return tileLabels([user], organisation.login.tilesShowSurnameInitial === true, locale)[0];
}

/**
 * The shortest start of `u`'s surname that none of `others` (with the same first name and another surname)
 * starts with: "K." where the initial tells them apart, "Ko." beside a "Kr.", the whole surname (no full stop)
 * where it is the start of another's. Empty when there is no surname.
 */
function surnameStart(u: User, others: readonly User[], collator: Intl.Collator, locale: string): string {
  const own = graphemes(u.familyName, locale);
  if (!own.length) return '';
  const theirs = others.filter((o) => collator.compare(o.familyName.trim(), u.familyName.trim()) !== 0).map((o) => graphemes(o.familyName, locale));
  for (let n = 1; n <= own.length; n++) {
    const start = own.slice(0, n).join('');
    if (theirs.every((g) => collator.compare(g.slice(0, n).join(''), start) !== 0)) {
      const shown = firstGrapheme(start, locale) + own.slice(1, n).join('');
      return n === own.length ? shown : `${shown}.`;
    }
  }
  // The surname is the start of a classmate's (Kim, Kimball): said whole.
  return firstGrapheme(own[0]!, locale) + own.slice(1).join('');
}

/**
 * Names the tiles: the first name; with the surname's initial when the school asks for it, or when another
 * pupil of the class has the same first name (compared as the language does, ignoring case and accents); where
 * the initial is shared too, as much of the surname as tells them apart ("Ava Ko.", "Ava Kr."); where even the
 * surnames are the same, a number ("Ava K. 1", "Ava K. 2", in the order of their ids) and circles of different
 * colours. Sorted by label, then by id so the order is steady.
 */
export function tileLabels(users: readonly User[], surnameInitial: boolean, locale: string): TilePupil[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base' });
  const given = (u: User) => u.givenName.trim();
  const namesakes = (u: User) => users.filter((o) => o.id !== u.id && collator.compare(given(o), given(u)) === 0);
  const labelled = users.map((u) => {
    const others = namesakes(u);
    const surname = others.length ? surnameStart(u, others, collator, locale) : surnameInitial ? surnameStart(u, [], collator, locale) : '';
    return { u, label: surname ? `${given(u)} ${surname}` : given(u) };
  });
  const byId = (a: { u: User }, b: { u: User }) => (a.u.id < b.u.id ? -1 : a.u.id > b.u.id ? 1 : 0);
  const tiles = labelled.map(({ u, label }) => {
    const twins = labelled.filter((o) => collator.compare(o.label, label) === 0).sort(byId);
    return { u, label: twins.length > 1 ? `${label} ${twins.findIndex((o) => o.u.id === u.id) + 1}` : label, twins };
  });
  const colours = new Map<string, number>();
  for (const { u, twins } of [...tiles].sort(byId)) {
    // Twins' circles differ: the next free colour after those already given to a twin.
    const taken = new Set(twins.map((o) => colours.get(o.u.id)).filter((c) => c !== undefined));
    let colour = colourOf(u.id);
    while (taken.has(colour) && taken.size < TILE_COLOURS) colour = (colour + 1) % TILE_COLOURS;
    colours.set(u.id, colour);
  }
  return tiles.map(({ u, label }) => ({ id: u.id, username: u.username, label, initial: firstGrapheme(u.givenName, locale), colour: colours.get(u.id)! }))
    .sort((a, b) => collator.compare(a.label, b.label) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
