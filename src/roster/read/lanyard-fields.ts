import { CONFIG_SCHEMA } from '../../config/schema.js';

/**
 * What Lanyard accepts of a user, as the configuration file's schema says it (src/config/schema.ts →
 * definitions.user), so a roster is checked line by line against the same rules as `lanyard import`.
 */
const user = CONFIG_SCHEMA.definitions.user.properties;

/** A username: letters, digits and . _ @ -, at most 64. */
export const USERNAME = new RegExp(user.username.pattern);
export const USERNAME_RULE = 'letters, digits and . _ @ - only, at most 64';

/** A user type (student, employee, admin…): lower-case letters and _, at most 32. */
export const USER_TYPE = new RegExp(CONFIG_SCHEMA.definitions.user_type.pattern);
export const USER_TYPE_RULE = 'lower-case letters and _ only, at most 32';

/** The longest given or family name. */
export const NAME_MAX = user.given_name.maxLength;
