import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { ConfigError } from '../errors.js';
import { normalizeBadgeCode } from '../formats/badge-code.js';
import { canonicalEmojiPassword, parseEmojiPassword } from '../formats/emoji-bank.js';
import { unseenInEmail } from '../formats/email-address.js';
import { CONSOLE_WORDS, SANDBOX_SLUG } from './reserved.js';
import { productionFileProblems } from './production.js';
import { schoolDayProblems } from './school-day.js';
import { type AppSeed, CONFIG_SCHEMA, type ConfigFile } from './schema.js';

/**
 * The configuration file (LANYARD_CONFIG, or the demo): read, checked against its schema (src/config/schema.ts),
 * then against the rules the schema cannot express and the production rules (production.ts). config.ts puts
 * it together with the environment.
 */

/** The client_id an `organisations[].apps` entry names. */
export const appSeedClientId = (a: AppSeed): string => (typeof a === 'string' ? a : a.client_id);

let validator: ReturnType<Ajv['compile']> | undefined;
function validateFile(data: unknown): ErrorObject[] {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats.default(ajv);
    validator = ajv.compile(CONFIG_SCHEMA);
  }
  return validator(data) ? [] : (validator.errors ?? []);
}

function describe(e: ErrorObject): string {
  const path = e.instancePath || '/';
  if (e.keyword === 'additionalProperties') {
    return `${path}: unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  }
  if (e.keyword === 'enum') {
    return `${path}: must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  }
  const hashCommand = HASH_COMMANDS[path.slice(path.lastIndexOf('/') + 1)];
  if (e.keyword === 'pattern' && hashCommand) {
    return `${path}: is not an argon2id hash ($argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>); make one with \`${hashCommand}\``;
  }
  return `${path}: ${e.message ?? e.keyword}`;
}

/** The command that makes a hash field's value, for the message when one is not a hash (a placeholder left in). */
const HASH_COMMANDS: Record<string, string> = {
  password_hash: 'lanyard users hash',
  emoji_password_hash: 'lanyard users hash --emoji',
};

/** What a configuration file holds and everything wrong with it, found in one pass. */
export interface FileInspection {
  /** The file, when nothing is wrong with it. */
  file?: ConfigFile | undefined;
  /** Every problem, each naming the file and a JSON path: the schema's, and the rules it cannot express. */
  problems: string[];
  /**
   * What NODE_ENV=production would also refuse in the file (plaintext credentials, http addresses, …), found
   * on whatever of it could be read, so that one run of check-config lists them beside the other problems.
   */
  productionProblems: string[];
}

/**
 * Reads a config file and finds every problem at once: the schema's, the rules it cannot express and the
 * production rules, each on as much of the file as is well-formed enough to check (a check that cannot
 * make sense of a part the schema already refused finds nothing there), so an operator fixes a file in
 * one round, not three.
 */
export function inspectConfigFile(path: string, o: { usingDemo: boolean }): FileInspection {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { problems: [`${path}: cannot read file (${(err as NodeJS.ErrnoException).code ?? String(err)})`], productionProblems: [] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { problems: [`${path}: not valid JSON (${(err as Error).message})`], productionProblems: [] };
  }
  const named = (p: string) => `${path}: ${p}`;
  const problems = validateFile(data).map((e) => named(describe(e)));
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { problems, productionProblems: [] };
  const shaped = data as ConfigFile;
  problems.push(...asFarAsItGoes(() => semanticProblems(shaped)).map(named));
  const production = asFarAsItGoes(() => productionFileProblems(shaped, o.usingDemo)).map(named);
  return { file: problems.length ? undefined : shaped, problems, productionProblems: production };
}

/** A check's problems; none where the data is too broken for it to run (the schema's problems say why). */
function asFarAsItGoes(check: () => string[]): string[] {
  try {
    return check();
  } catch {
    return [];
  }
}

/** Reads and validates a config file; throws ConfigError naming the file, JSON path and problem (every one). */
export function readConfigFile(path: string): ConfigFile {
  const { file, problems } = inspectConfigFile(path, { usingDemo: false });
  if (!file) throw new ConfigError(problems);
  return file;
}

/** Rules JSON Schema cannot express: uniqueness across items, credentials present. */
function semanticProblems(file: ConfigFile): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  file.clients.forEach((c, i) => {
    if (seen.has(c.client_id)) problems.push(`/clients/${i}/client_id: duplicate client_id "${c.client_id}"`);
    seen.add(c.client_id);
    if (!c.secret_hashes?.length && !c.secrets?.length) {
      problems.push(`/clients/${i}: needs at least one secret in "secret_hashes" (or "secrets" in development)`);
    }
  });
  const throttling = file.login_throttling;
  if (throttling?.base_wait_seconds && throttling.max_wait_seconds && throttling.max_wait_seconds < throttling.base_wait_seconds) {
    problems.push('/login_throttling/max_wait_seconds: must not be shorter than base_wait_seconds');
  }
  problems.push(...schoolDayProblems(file));
  const badgeCodes = new Set<string>();
  const slugs = new Set<string>();
  (file.organisations ?? []).forEach((o, i) => {
    if (slugs.has(o.slug)) problems.push(`/organisations/${i}/slug: duplicate slug "${o.slug}"`);
    if (o.slug === SANDBOX_SLUG) problems.push(`/organisations/${i}/slug: "${SANDBOX_SLUG}" is reserved for Lanyard's developer sandbox school (docs/developer-area.md → Developer area); choose another slug`);
    if (CONSOLE_WORDS.includes(o.slug)) problems.push(`/organisations/${i}/slug: "${o.slug}" is one of the school console's own addresses (/school/${o.slug}: docs/school-console.md); choose another slug`);
    slugs.add(o.slug);
    const apps = new Set<string>();
    (o.apps ?? []).forEach((a, j) => {
      const id = appSeedClientId(a);
      if (apps.has(id)) problems.push(`/organisations/${i}/apps/${j}: "${id}" is listed twice`);
      apps.add(id);
    });
    const names = new Set<string>();
    (o.users ?? []).forEach((u, j) => {
      const key = u.username.toLowerCase();
      if (names.has(key)) problems.push(`/organisations/${i}/users/${j}/username: duplicate username "${u.username}"`);
      names.add(key);
      if (u.password && u.password_hash) {
        problems.push(`/organisations/${i}/users/${j}: give "password" or "password_hash", not both`);
      }
      if (u.emoji_password && u.emoji_password_hash) {
        problems.push(`/organisations/${i}/users/${j}: give "emoji_password" or "emoji_password_hash", not both`);
      }
      if (u.emoji_password && !canonicalEmojiPassword(parseEmojiPassword(u.emoji_password))) {
        problems.push(`/organisations/${i}/users/${j}/emoji_password: must be 6 names from the emoji bank (src/formats/emoji-bank.ts)`);
      }
      const badge = u.badge_code && normalizeBadgeCode(u.badge_code);
      if (u.badge_code && !badge) {
        problems.push(`/organisations/${i}/users/${j}/badge_code: not a badge code (26 characters of Crockford base32)`);
      }
      for (const key of ['email', 'google_email', 'microsoft_email'] as const) {
        const unseen = typeof u[key] === 'string' ? unseenInEmail(u[key]) : undefined;
        if (unseen) problems.push(`/organisations/${i}/users/${j}/${key}: ${unseen}`);
      }
      if (badge && badgeCodes.has(badge)) problems.push(`/organisations/${i}/users/${j}/badge_code: the same badge code is given to another user`);
      if (badge) badgeCodes.add(badge);
    });
  });
  return problems;
}
