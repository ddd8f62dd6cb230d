import { DEFAULT_LOGIN_SETTINGS, type LoginMethod } from '../../adapters/store.js';
import { emojiGlyph, parseEmojiPassword } from '../formats/emoji-bank.js';
import type { ConfigFile } from '../config/schema.js';

/**
 * What `lanyard serve` prints on a terminal once it listens, instead of JSON lines: where Lanyard is, how to
 * sign in to the demo, where the data lives, and the warnings in plain words. Pure: main.ts gathers the facts.
 */

export interface DemoSignIn {
  organisation: string;
  slug: string;
  method: LoginMethod;
  username: string;
  /** The secret as a person enters it (a password, the pictures, the badge code). */
  secret: string;
  who: string;
  /** The secret is no longer the user's: replaced with the `lanyard` command since (src/startup/replaced-sign-ins.ts). */
  replaced?: boolean;
}

export interface StartupFacts {
  issuer: string;
  /** The Demo App's address when it runs. */
  demoAppUrl?: string | undefined;
  /** Who may create a developer account (the configuration's developer_signup). */
  developerSignup?: 'invite' | 'open' | undefined;
  /** What a `lanyard` command needs before it to act on this server (`PORT=3001 `), when not the defaults. */
  cliEnvironment?: string | undefined;
  signIns: DemoSignIn[];
  /** The store URL, credentials redacted. */
  store: string;
  redisPrefix?: string | undefined;
  /** Absolute path of the data directory (SQLite file store), if any. */
  dataDir?: string | undefined;
  /** Where the key that encrypts the signing keys comes from. */
  keyEncryptionKey: string;
  warnings: string[];
}

const METHOD_NAMES: Record<LoginMethod, string> = { password: 'password', emoji: 'emoji password', badge: 'badge' };

/**
 * The users a development configuration gives plaintext credentials to, for each sign-in method their
 * organisation offers. Only a development configuration: its secrets are public anyway (the demo), and a
 * real configuration's must never reach a screen.
 */
export function demoSignIns(file: ConfigFile): DemoSignIn[] {
  if (!file.development) return [];
  const signIns: DemoSignIn[] = [];
  for (const o of file.organisations ?? []) {
    const methods = o.login_methods ?? DEFAULT_LOGIN_SETTINGS.methods;
    for (const u of o.users ?? []) {
      const base = { organisation: o.name, slug: o.slug, username: u.username, who: `${u.given_name} ${u.family_name}, ${u.type}` };
      if (u.password && methods.includes('password')) signIns.push({ ...base, method: 'password', secret: u.password });
      if (u.emoji_password && methods.includes('emoji')) {
        const names = parseEmojiPassword(u.emoji_password);
        signIns.push({ ...base, method: 'emoji', secret: `${names.map((n) => emojiGlyph(n) ?? n).join(' ')} (${names.join(', ')})` });
      }
      if (u.badge_code && methods.includes('badge')) signIns.push({ ...base, method: 'badge', secret: `${u.badge_code} (type it on the badge screen)` });
    }
  }
  return signIns;
}

const field = (label: string, value: string): string => `  ${label.padEnd(16)}${value}\n`;

export function startupSummary(f: StartupFacts): string {
  let text = '\nLanyard is ready.\n\n';
  // Pages answer only under the issuer's host; another name of it is sent there (docs/operations.md → The address to open).
  text += field('Open', `${f.issuer}/  (use this address: a page asked for under another name of this host is sent here)`);
  text += field('Issuer', f.issuer);
  text += field('Discovery', `${f.issuer}/.well-known/openid-configuration`);
  if (f.demoAppUrl) text += field('Demo App', `${f.demoAppUrl}  (open it and click "Sign in with Lanyard")`);
  if (f.developerSignup) {
    text += field('Developer area', `${f.issuer}/developer  (${f.developerSignup === 'open'
      ? `sign up at ${f.issuer}/developer/sign-up`
      : `an account: ${f.cliEnvironment ?? ''}npm run lanyard -- developers invite YOU@EXAMPLE.ORG, then open the link it prints`})`);
  }

  const organisations = [...new Set(f.signIns.map((s) => s.slug))];
  for (const slug of organisations) {
    const these = f.signIns.filter((s) => s.slug === slug);
    text += `\nDemo users of ${these[0]!.organisation} (organisation "${slug}"):\n`;
    for (const s of these) {
      const secret = s.replaced ? `(the configuration's ${METHOD_NAMES[s.method]}: replaced since with the lanyard command)` : s.secret;
      text += `    ${METHOD_NAMES[s.method].padEnd(16)}${s.username} / ${secret} — ${s.who}\n`;
    }
  }

  text += '\nData:\n';
  text += field('Store', f.redisPrefix ? `${f.store} (key prefix "${f.redisPrefix}")` : f.store);
  if (f.dataDir) text += field('Data directory', f.dataDir);
  text += field('Signing keys', `encrypted with ${f.keyEncryptionKey}`);

  if (f.warnings.length) {
    text += '\nWarnings:\n';
    for (const w of f.warnings) text += `  ! ${w}\n`;
  }
  text += '\nRequests are logged below, one line each (LANYARD_LOG_FORMAT=json for JSON lines). Stop with Ctrl-C.\n\n';
  return text;
}
