import { SANDBOX_SLUG } from '../../config/reserved.js';

/**
 * The slug a new organisation gets from its name (docs/rostering.md → Importing): lower case, a-z, 0-9 and
 * dashes, accents dropped (`École Saint-Exupéry` → `ecole-saint-exupery`), at most 64 characters, never an
 * organisation id's shape (o + 15 digits) nor the sandbox's; `school` when nothing is left of the name.
 * Taken slugs get `-2`, `-3`…
 */
export function slugFromName(name: string): string {
  const base = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '');
  if (!base || base === SANDBOX_SLUG || /^o[0-9]{15}$/.test(base)) return base ? `${base}-school` : 'school';
  return base;
}

/** `slug`, or `slug-2`, `slug-3`… : the first not in `taken`. */
export function uniqueSlug(slug: string, taken: ReadonlySet<string>): string {
  if (!taken.has(slug)) return slug;
  for (let i = 2; ; i += 1) {
    const candidate = `${slug}-${i}`;
    if (!taken.has(candidate)) return candidate;
  }
}
