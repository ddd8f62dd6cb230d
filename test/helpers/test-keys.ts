import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRsa4096, type KeyPairPem } from '../../src/keys/rsa-key-pair.js';

/**
 * Real RSA-4096 key pairs, generated once and reused across test processes (a pool on disk under the
 * temp directory), because generating one takes a tenth of a second or more. Each call within a process returns the next
 * pair of the pool, so keys created for one store are distinct.
 */
const POOL_DIR = join(tmpdir(), 'lanyard-test-rsa4096-4p'); // four primes (src/keys/rsa-key-pair.ts)
let next = 0;

export async function pooledKeyPair(): Promise<KeyPairPem> {
  const i = next++;
  const file = join(POOL_DIR, `${i}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as KeyPairPem;
  const pair = await generateRsa4096();
  mkdirSync(POOL_DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(pair), { mode: 0o600 });
  renameSync(tmp, file);
  return pair;
}

/** Restart the pool numbering: a restarted server in the same test must not get fresh keys by accident. */
export function resetKeyPool(): void {
  next = 0;
}
