import type { ConfigFile } from './schema.js';

/**
 * The production rules (NODE_ENV=production refuses every unsafe development default) and the warnings a
 * development setup prints loudly at startup (docs/configuration.md → Production rules). The environment's
 * part and the file's part are checked separately, so that `lanyard check-config` lists both at once.
 */

/** What NODE_ENV=production refuses in the environment. */
export function productionEnvProblems(config: { issuer: string; cookieKeys?: string[] | undefined }, usingDemo: boolean): string[] {
  const problems: string[] = [];
  if (!config.cookieKeys) problems.push('LANYARD_COOKIE_KEYS: required in production (comma-separated, each at least 32 characters)');
  if (!config.issuer.startsWith('https://')) problems.push(`LANYARD_ISSUER: "${config.issuer}" must be an https URL in production`);
  if (usingDemo) problems.push('LANYARD_CONFIG: is unset, and the demo configuration is development-only');
  return problems;
}

/** What NODE_ENV=production refuses in the file: every unsafe development default (JSON paths; the caller names the file). */
export function productionFileProblems(file: ConfigFile, usingDemo: boolean): string[] {
  const problems: string[] = [];
  if (!usingDemo && file.development) problems.push('/development: a development configuration is refused in production');
  const loopback = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\//;
  file.clients.forEach((c, i) => {
    if (c.secrets?.length) problems.push(`/clients/${i}/secrets: plaintext secrets are refused in production; use secret_hashes`);
    c.redirect_uris.forEach((uri, j) => {
      if (!uri.startsWith('https://') && !loopback.test(uri)) {
        problems.push(`/clients/${i}/redirect_uris/${j}: must be https (or http on loopback) in production`);
      }
    });
    for (const field of ['logout_url', 'initiate_login_uri'] as const) {
      const url = c[field];
      if (url && !url.startsWith('https://') && !loopback.test(url)) {
        problems.push(`/clients/${i}/${field}: must be https (or http on loopback) in production`);
      }
    }
  });
  (file.organisations ?? []).forEach((o, i) => (o.users ?? []).forEach((u, j) => {
    if (u.password) problems.push(`/organisations/${i}/users/${j}/password: plaintext passwords are refused in production; use password_hash`);
    if (u.emoji_password) problems.push(`/organisations/${i}/users/${j}/emoji_password: plaintext emoji passwords are refused in production; issue them with \`lanyard users emoji\``);
    if (u.badge_code) problems.push(`/organisations/${i}/users/${j}/badge_code: fixed badge codes are refused in production; issue badges with \`lanyard badges print\``);
  }));
  if (file.service_documentation?.startsWith('http://')) {
    problems.push('/service_documentation: must be https in production');
  }
  if (file.audit?.enabled === false) problems.push('/audit/enabled: a school relies on its audit trail; turning it off is refused in production (it is for the bench)');
  return problems;
}

/** A development configuration: the demo, or a file that says so. Its passwords are public. */
export const isDevelopment = (file: Pick<ConfigFile, 'development'>, usingDemo: boolean): boolean => usingDemo || file.development === true;

const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1', 'localhost'];

/** Unsafe development defaults in use, printed loudly at startup (and refused in production, above). */
export function developmentWarnings(
  config: { file: ConfigFile; configPath: string; host: string; cookieKeys?: string[] | undefined }, usingDemo: boolean,
): string[] {
  const warnings: string[] = [];
  if (isDevelopment(config.file, usingDemo)) {
    warnings.push(`DEVELOPMENT CONFIGURATION in use (${config.configPath}): its passwords and secrets are public; never expose it to real users`);
    if (!LOOPBACK_ADDRESSES.includes(config.host)) warnings.push(`HOST=${config.host}: other machines can reach this development configuration and sign in with its public passwords`);
  }
  if (config.file.clients.some((c) => c.secrets?.length)) warnings.push('plaintext client secrets in the configuration: whoever reads the file can act as the app; use secret_hashes (`lanyard clients secret`)');
  if ((config.file.organisations ?? []).some((o) => o.users?.some((u) => u.password || u.emoji_password || u.badge_code))) {
    warnings.push('plaintext user credentials (password, emoji_password or badge_code) in the configuration: whoever reads the file can sign in as those users');
  }
  if (config.file.audit?.enabled === false) warnings.push('audit.enabled is false: nothing is recorded in the schools\' audit trail (sign-ins, launches, credential changes)');
  if (!config.cookieKeys) warnings.push('LANYARD_COOKIE_KEYS unset: cookie signing keys are generated and kept in the store; set your own before going live (production requires them)');
  return warnings;
}
