import { randomBytes } from 'node:crypto';

/**
 * Identifiers the developer area hands out. A client_id is public (it travels in every authorization URL),
 * but it is still unguessable: 128 random bits, so no one can find or squat on apps by counting. Hex keeps
 * it one "word" to double-click and copy, and safe in URLs, command lines and config files.
 */
export const newClientId = (): string => `app_${randomBytes(16).toString('hex')}`;

/** A secret's id: not secret (it names the secret in lists, URLs and the history), unique within its app. */
export const newSecretId = (): string => `sec_${randomBytes(8).toString('hex')}`;
