/**
 * Names Lanyard keeps for itself, which a configuration file may not use (src/config/file.ts checks them).
 */

/** The slug of the developers' sandbox school (docs/developer-area.md): its test users sign in only to apps in development. */
export const SANDBOX_SLUG = 'sandbox';

/**
 * Words the school console uses for its own pages at /school/<word> (src/school/: the person's account, signing in
 * and out, the JSON API), which a school's slug therefore may not be: the console's addresses of a school are
 * /school/<slug>/….
 */
export const CONSOLE_WORDS: readonly string[] = ['account', 'api', 'sign-in', 'sign-out'];

/** Slugs no organisation may have: the sandbox school's, and the console's own words. */
export const RESERVED_SLUGS: readonly string[] = [SANDBOX_SLUG, ...CONSOLE_WORDS];
