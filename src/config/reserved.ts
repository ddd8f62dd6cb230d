/**
 * Names Lanyard keeps for itself, which a configuration file may not use (src/config/file.ts checks them).
 */

/** The slug of the developers' sandbox school (docs/developer-area.md): its test users sign in only to apps in development. */
export const SANDBOX_SLUG = 'sandbox';
