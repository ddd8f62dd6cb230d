import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import argon2 from 'argon2';
import { ARGON2_OPTIONS } from '../src/accounts/credential-hasher.js';
import { canonicalEmojiPassword } from '../src/formats/emoji-bank.js';
import { generateClientSecret, hashClientSecret } from '../src/clients/client-secret.js';
import { basicAuth } from './http.js';

/**
 * The configuration file the bench gives Lanyard: one school, one client, N pupils with an emoji password
 * and some staff with a password. Every pupil shares one argon2id hash (and every member of staff another),
 * made once here with Lanyard's own parameters, so that startup stays fast with thousands of users while
 * each sign-in still costs exactly one real argon2id verification.
 */
const ORG = 'bench-school';
const EMOJI = ['dog', 'apple', 'rocket', 'star', 'cat', 'pizza'];

/**
 * Budgets raised so the bench measures throughput, not the anonymous-request budgets or the guessing
 * protection (the bench sends everything from 127.0.0.1, far beyond one school's morning). Every counter
 * is still read and written as usual, so its cost is in the figures.
 */
export const RAISED_LIMITS = {
  rate_limits: { authorize_per_minute: 10_000_000, authorize_per_hour: 100_000_000, interaction_pages_per_minute: 10_000_000 },
  login_throttling: { new_devices_per_ip_per_hour: 10_000_000, ip_failures: 1_000_000, device_failures: 1_000_000 },
};

export interface BenchSetup {
  configPath: string;
  /** The same configuration with the audit trail off (`audit.enabled: false`): what the trail costs is the difference. */
  auditOffConfigPath: string;
  clientId: string;
  clientSecret: string;
  /** The client's `Authorization: Basic …` header for the token endpoint (client_secret_basic), made once. */
  clientAuthorization: string;
  /** Loopback, never contacted: the bench reads the code from the redirect's Location. */
  redirectUri: string;
  org: string;
  pupils: string[];
  staff: string[];
  staffPassword: string;
  /** The pupils' emoji password, as the form posts it (names joined by commas). */
  emoji: string;
  cookieKeys: string;
  keyEncryptionKey: string;
}

export async function writeBenchConfig(dir: string, o: { pupils: number; staff: number }): Promise<BenchSetup> {
  const clientId = 'bench-app';
  const clientSecret = generateClientSecret();
  const redirectUri = 'http://127.0.0.1:9/callback';
  const staffPassword = `bench-${randomBytes(12).toString('hex')}`;
  const emoji = canonicalEmojiPassword(EMOJI);
  if (!emoji) throw new Error('the bench emoji password is not one Lanyard accepts');
  const [staffHash, emojiHash] = await Promise.all([argon2.hash(staffPassword, ARGON2_OPTIONS), argon2.hash(emoji, ARGON2_OPTIONS)]);
  const pupils = Array.from({ length: o.pupils }, (_, i) => `pupil-${String(i + 1).padStart(5, '0')}`);
  const staff = Array.from({ length: o.staff }, (_, i) => `teacher-${String(i + 1).padStart(3, '0')}`);
  const config = {
    clients: [{
      client_id: clientId,
      name: 'Bench App',
      secret_hashes: [hashClientSecret(clientSecret)],
      redirect_uris: [redirectUri],
      default_scopes: ['openid'],
    }],
    organisations: [{
      slug: ORG,
      name: 'Bench Primary',
      apps: [clientId],
      login_methods: ['emoji', 'password'],
      users: [
        ...pupils.map((username, i) => ({
          username, given_name: `Pupil${i + 1}`, family_name: 'Bench', type: 'student', emoji_password_hash: emojiHash,
        })),
        ...staff.map((username, i) => ({
          username, given_name: `Teacher${i + 1}`, family_name: 'Bench', type: 'employee',
          email: `${username}@bench.example`, password_hash: staffHash,
        })),
      ],
    }],
    ...RAISED_LIMITS,
  };
  const configPath = join(dir, 'bench-config.json');
  writeFileSync(configPath, JSON.stringify(config));
  const auditOffConfigPath = join(dir, 'bench-config-audit-off.json');
  writeFileSync(auditOffConfigPath, JSON.stringify({ ...config, audit: { enabled: false } }));
  return {
    configPath, auditOffConfigPath, clientId, clientSecret, clientAuthorization: basicAuth(clientId, clientSecret), redirectUri, org: ORG, pupils, staff, staffPassword, emoji,
    cookieKeys: randomBytes(48).toString('base64'),
    keyEncryptionKey: randomBytes(32).toString('base64'),
  };
}
